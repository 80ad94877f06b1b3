package dev.zerolayer.fallback.config;

import dev.zerolayer.fallback.monitor.ScopeKind;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * fallback-service settings ({@code zerolayer.fallback.*}); the alert threshold, window, sustain time and minimum
 * decisions are in the policy document ({@code alerting}), changeable at run time.
 *
 * @param dataDir          where the policy history file lives (must survive restarts)
 * @param replayDecisions  how many of the latest decisions a dry run replays
 * @param monitorTick      how often fallback rates are evaluated and alerts published
 * @param maxApiKeys       API keys tracked at once by the monitor; further keys count under {@code _other}
 * @param alertOn          the scope kinds that raise alerts (the others are shown in the stats only)
 * @param bootstrapRetry   wait between attempts to read fallback.policy.v1 at start
 * @param snapshotTimeout  longest read of fallback.policy.v1 at start
 */
@Validated
@ConfigurationProperties("zerolayer.fallback")
public record FallbackProperties(
        @DefaultValue(".zerolayer/data/fallback") @NotNull Path dataDir,
        @DefaultValue("10000") @Min(1) @Max(1_000_000) int replayDecisions,
        @DefaultValue("1s") Duration monitorTick,
        @DefaultValue("2000") @Min(1) int maxApiKeys,
        @DefaultValue({"TIER", "API_KEY"}) @NotEmpty Set<ScopeKind> alertOn,
        @DefaultValue("2s") Duration bootstrapRetry,
        @DefaultValue("10s") Duration snapshotTimeout) {
}
