package dev.zerolayer.fallback.web;

import dev.zerolayer.fallback.monitor.FallbackCounts;
import dev.zerolayer.fallback.monitor.FallbackMonitor;
import dev.zerolayer.fallback.policy.PolicyStore;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/fallback/stats}: decisions, fallbacks and fallback rate per tier since start and their totals; the
 * sliding-window rates per tier, reason and API key with each scope's alert state; the alerts firing now.
 */
@RestController
public class FallbackStatsController {

    private final FallbackCounts counts;
    private final FallbackMonitor monitor;
    private final PolicyStore store;

    public FallbackStatsController(FallbackCounts counts, FallbackMonitor monitor, PolicyStore store) {
        this.counts = counts;
        this.monitor = monitor;
        this.store = store;
    }

    @GetMapping("/v1/fallback/stats")
    public Map<String, Object> stats() {
        FallbackMonitor.Snapshot snapshot = monitor.snapshot(store.documentOrDefault().alerting());
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("asOf", snapshot.asOf().toString());
        window.put("seconds", snapshot.alerting().windowSeconds());
        window.put("threshold", snapshot.alerting().fallbackRateThreshold());
        window.put("sustainSeconds", snapshot.alerting().sustainSeconds());
        window.put("minDecisions", snapshot.alerting().minDecisions());
        window.put("all", snapshot.all());
        window.put("tiers", snapshot.tiers());
        window.put("reasons", snapshot.reasons());
        window.put("apiKeys", snapshot.apiKeys());
        window.put("lateDecisions", snapshot.lateDecisions());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tiers", counts.byTier());
        body.put("total", counts.total());
        body.put("window", window);
        body.put("alerts", snapshot.alerts());
        return body;
    }
}
