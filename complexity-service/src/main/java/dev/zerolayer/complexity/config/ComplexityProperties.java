package dev.zerolayer.complexity.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * complexity-service settings ({@code zerolayer.complexity.*}).
 *
 * @param maxBodySize      largest request body the APIs read (larger: 413)
 * @param maxBatchItems    most conversations one {@code /v1/complexity/score} call may carry
 * @param maxBaselineItems most prompts one {@code /v1/complexity/baseline} call may carry
 * @param model            checks an uploaded model must pass, and how its publication is confirmed
 * @param calibration      the sliding window over router decisions and the target its proposals hold
 */
@Validated
@ConfigurationProperties("zerolayer.complexity")
public record ComplexityProperties(
        @DefaultValue("4MB") @NotNull DataSize maxBodySize,
        @DefaultValue("256") @Min(1) @Max(10_000) int maxBatchItems,
        @DefaultValue("5000") @Min(1) @Max(100_000) int maxBaselineItems,
        @DefaultValue @Valid Model model,
        @DefaultValue @Valid Calibration calibration) {

    /**
     * Upload checks and publication.
     *
     * @param minSanityAuc   the AUC an uploaded model must reach on the built-in sanity set (random is 0.5)
     * @param maxAbsWeight   largest |weight| accepted
     * @param maxAbsIntercept largest |intercept| accepted
     * @param enforceFeatureDirections whether weights must lie on their feature's designed side (as training keeps them)
     * @param publishTimeout how long an upload waits to read its own model back from the topic
     */
    public record Model(
            @DefaultValue("0.6") @DecimalMin("0.5") @DecimalMax("1.0") double minSanityAuc,
            @DefaultValue("20") @DecimalMin("0.1") double maxAbsWeight,
            @DefaultValue("20") @DecimalMin("0.1") double maxAbsIntercept,
            @DefaultValue("true") boolean enforceFeatureDirections,
            @DefaultValue("10s") @NotNull Duration publishTimeout) {
    }

    /**
     * Calibration from {@code router.decisions.v1}.
     *
     * @param window             how far back decisions count
     * @param slots              time slots the window is kept in (decisions leave it one slot at a time)
     * @param bands              score bands of equal width over [0,1]
     * @param targetFallbackRate the fallback rate proposals aim to stay at or below
     * @param minDecisions       fewer routed decisions in the window: no proposal ({@code insufficient_data})
     * @param minBandDecisions   a band with fewer decisions of a tier is not evidence for moving its threshold
     */
    public record Calibration(
            @DefaultValue("1h") @NotNull Duration window,
            @DefaultValue("60") @Min(1) @Max(3_600) int slots,
            @DefaultValue("10") @Min(2) @Max(100) int bands,
            @DefaultValue("0.05") @DecimalMin("0.0") @DecimalMax("1.0") double targetFallbackRate,
            @DefaultValue("100") @Min(1) int minDecisions,
            @DefaultValue("20") @Min(1) int minBandDecisions) {
    }
}
