package dev.zerolayer.deploy.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The dashboard shows what issue #9 lists, reads the datasource chosen by its variable, and its parser is right. */
class DashboardFileTest {

    private final JsonNode dashboard = Dashboard.load();

    @Test
    void extractsMetricNamesFromPromQl() {
        assertThat(Dashboard.metricNames("histogram_quantile(0.99, sum by (le) (rate(zerolayer_route_time_seconds_bucket"
                + "[$__rate_interval])))")).containsExactly("zerolayer_route_time_seconds_bucket");
        assertThat(Dashboard.metricNames("sum by (reason) (rate(zerolayer_fallback_total[5m])) / scalar(sum(rate("
                + "zerolayer_requests_total{status=\"200\"}[5m])))"))
                .containsExactly("zerolayer_fallback_total", "zerolayer_requests_total");
        assertThat(Dashboard.metricNames("max by (service, topic) (zerolayer_view_staleness_seconds) > bool 5"))
                .containsExactly("zerolayer_view_staleness_seconds");
    }

    @Test
    void coversEveryViewTheIssueAsksFor() {
        Set<String> metrics = Dashboard.allMetricNames(dashboard);
        assertThat(metrics).contains(
                "zerolayer_requests_total",                // requests
                "zerolayer_route_total",                   // route share per tier / cluster
                "zerolayer_route_time_seconds_bucket",     // route-time percentiles
                "zerolayer_upstream_ttfb_seconds_bucket",  // TTFB percentiles
                "zerolayer_fallback_total",                // fallback rate by reason
                "zerolayer_telemetry_nodes",               // node states over time
                "resilience4j_circuitbreaker_state",       // breaker states (Resilience4j's binder)
                "zerolayer_view_staleness_seconds",        // view staleness
                "zerolayer_router_events_dropped_total");  // dropped events

        List<JsonNode> panels = Dashboard.panels(dashboard);
        assertThat(panels).allSatisfy(panel -> {
            assertThat(Dashboard.expressions(panel)).as(panel.path("title").asString()).isNotEmpty();
            assertThat(panel.path("datasource").path("uid").asString()).isEqualTo("${datasource}");
            assertThat(panel.path("description").asString()).isNotBlank();
        });
        assertThat(panels).anySatisfy(p -> assertThat(String.join(" ", Dashboard.expressions(p)))
                .contains("sum by (tier)").contains("/ scalar(sum(rate(zerolayer_route_total"));
        assertThat(panels).anySatisfy(p -> assertThat(String.join(" ", Dashboard.expressions(p)))
                .contains("sum by (cluster)").contains("/ scalar(sum(rate(zerolayer_route_total"));
        for (String histogram : List.of("zerolayer_route_time_seconds_bucket", "zerolayer_upstream_ttfb_seconds_bucket")) {
            assertThat(panels).anySatisfy(p -> assertThat(Dashboard.expressions(p)).anySatisfy(e -> assertThat(e)
                    .contains("histogram_quantile(0.99").contains(histogram)));
        }
    }

    @Test
    void theFallbackPanelDrawsTheFivePercentLine() {
        JsonNode fallback = Dashboard.panels(dashboard).stream()
                .filter(p -> String.join(" ", Dashboard.expressions(p)).contains("zerolayer_fallback_total"))
                .findFirst().orElseThrow();
        assertThat(String.join(" ", Dashboard.expressions(fallback))).contains("sum by (reason)")
                .contains("zerolayer_requests_total");
        JsonNode defaults = fallback.path("fieldConfig").path("defaults");
        assertThat(defaults.path("unit").asString()).isEqualTo("percentunit");
        assertThat(defaults.path("custom").path("thresholdsStyle").path("mode").asString()).contains("line");
        List<Double> steps = defaults.path("thresholds").path("steps").valueStream()
                .filter(s -> !s.path("value").isNull()).map(s -> s.path("value").asDouble()).toList();
        assertThat(steps).containsExactly(0.05);
    }

    @Test
    void readsTheDatasourceChosenByItsVariable() {
        JsonNode variable = dashboard.path("templating").path("list").get(0);
        assertThat(variable.path("name").asString()).isEqualTo("datasource");
        assertThat(variable.path("query").asString()).isEqualTo("prometheus");
        assertThat(dashboard.path("uid").asString()).isEqualTo("zerolayer-overview");
    }
}
