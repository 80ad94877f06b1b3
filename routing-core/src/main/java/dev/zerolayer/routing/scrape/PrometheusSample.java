package dev.zerolayer.routing.scrape;

import java.util.Map;

/** One sample line of the Prometheus text format: metric name, labels, value, optional timestamp in milliseconds. */
public record PrometheusSample(String name, Map<String, String> labels, double value, Long timestampMs) {

    public PrometheusSample {
        labels = Map.copyOf(labels);
    }

    public String label(String key) {
        return labels.get(key);
    }
}
