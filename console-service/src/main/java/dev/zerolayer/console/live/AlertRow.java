package dev.zerolayer.console.live;

import dev.zerolayer.contracts.fallback.FallbackAlert;
import java.time.Instant;

/** A fallback alert as the console shows it. */
public record AlertRow(String scope, String status, double fallbackRate, double threshold, Instant since) {

    public static AlertRow of(FallbackAlert alert) {
        return new AlertRow(alert.scope(), alert.status().name(), alert.fallbackRate(), alert.threshold(),
                alert.since());
    }
}
