package dev.zerolayer.complexity.web;

import dev.zerolayer.complexity.observation.ObservedDecisions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/complexity/observed}: decisions and fallbacks seen per tier, and their totals. */
@RestController
public class ObservedController {

    private final ObservedDecisions observed;

    public ObservedController(ObservedDecisions observed) {
        this.observed = observed;
    }

    @GetMapping("/v1/complexity/observed")
    public Map<String, Object> observed() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tiers", observed.byTier());
        body.put("total", observed.total());
        return body;
    }
}
