package dev.zerolayer.console.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The console's settings: how many decisions it keeps, the chart buckets, the services its admin actions go to, and
 * whether the simulator's fault buttons are offered (local mode).
 */
@Validated
@ConfigurationProperties("zerolayer.console")
public record ConsoleProperties(
        @Min(10) @Max(100_000) int decisionsKept,
        @Min(1) @Max(3_600) int bucketSeconds,
        @Min(2) @Max(1_440) int buckets,
        @NotNull URI fallbackUrl,
        @NotNull URI simulatorUrl,
        boolean local,
        @NotNull Duration adminTimeout) {
}
