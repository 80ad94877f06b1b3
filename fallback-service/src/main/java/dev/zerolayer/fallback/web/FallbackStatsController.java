package dev.zerolayer.fallback.web;

import dev.zerolayer.fallback.monitor.FallbackCounts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/fallback/stats}: decisions, fallbacks and fallback rate per tier since start, and their totals. */
@RestController
public class FallbackStatsController {

    private final FallbackCounts counts;

    public FallbackStatsController(FallbackCounts counts) {
        this.counts = counts;
    }

    @GetMapping("/v1/fallback/stats")
    public Map<String, Object> stats() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tiers", counts.byTier());
        body.put("total", counts.total());
        return body;
    }
}
