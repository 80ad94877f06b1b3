package dev.zerolayer.simulator.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.routing.scrape.PrometheusSample;
import dev.zerolayer.routing.scrape.PrometheusTextParser;
import dev.zerolayer.routing.scrape.ScrapeMapper;
import dev.zerolayer.routing.scrape.ScrapedSignals;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.support.TestNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} speaks dcgm-exporter's and vLLM's text formats: every series routing-core's parser and scrape mapper
 * read is there, per GPU with {@code gpu} and {@code Hostname} labels or per engine with {@code model_name}.
 */
class PrometheusExpositionTest {

    private static final List<String> DCGM = List.of("DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_NVLINK_TX_BYTES",
            "DCGM_FI_PROF_NVLINK_RX_BYTES", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_XID_ERRORS");

    @Test
    void metricsParseAndMapToTheNodesLoad() {
        try (TestNode node = TestNode.builder().id("opus-a100-80g-0").profile(HardwareProfiles.A100_80G_X8).start()) {
            for (int i = 0; i < 3; i++) {
                node.post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"" + "measure me ".repeat(20) + i + "\"}]}");
            }
            node.node().inject(FaultType.LOAD_SPIKE, Duration.ofSeconds(10), 0.5);

            HttpResponse<String> response = node.get("/metrics");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
            PrometheusTextParser.Scrape scrape = PrometheusTextParser.parse(response.body());

            for (String name : DCGM) {
                List<PrometheusSample> series = scrape.named(name);
                assertThat(series).as(name).hasSize(8);
                assertThat(series).extracting(s -> s.label("gpu")).containsExactly("0", "1", "2", "3", "4", "5", "6",
                        "7");
                assertThat(series).allSatisfy(s -> {
                    assertThat(s.label("Hostname")).isEqualTo("opus-a100-80g-0");
                    assertThat(s.label("modelName")).isEqualTo("NVIDIA A100-SXM4-80GB");
                    assertThat(s.label("UUID")).matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
                });
                assertThat(scrape.types()).containsEntry(name, "gauge");
            }
            assertThat(scrape.types()).containsEntry("vllm:time_to_first_token_seconds", "histogram")
                    .containsEntry("vllm:num_requests_running", "gauge");
            assertThat(scrape.named("vllm:time_to_first_token_seconds_bucket")).hasSize(17)
                    .allSatisfy(s -> assertThat(s.label("model_name")).isEqualTo("meta-llama/Llama-2-70b-chat-hf"));
            assertThat(scrape.named("vllm:time_to_first_token_seconds_count").get(0).value()).isEqualTo(3.0);
            assertThat(scrape.named("vllm:request_success_total")).extracting(s -> s.label("finished_reason"))
                    .containsExactly("stop", "length");

            ScrapedSignals signals = new ScrapeMapper(Map.of("Hostname", "opus-a100-80g-0"),
                    Map.of("model_name", "meta-llama/Llama-2-70b-chat-hf")).map(scrape, scrape);
            var snapshot = node.node().snapshot();
            assertThat(signals.requestsRunning()).hasValue(snapshot.totalRunning());
            assertThat(signals.requestsWaiting()).hasValue(snapshot.totalWaiting());
            assertThat(signals.requestsRunning().getAsDouble()).isEqualTo(16.0);
            assertThat(signals.kvCacheUsage()).hasValue(snapshot.kvUsage());
            assertThat(signals.smActive().getAsDouble()).isBetween(0.4, 0.95);
            long total = HardwareProfiles.A100_80G_X8.totalMemoryMiB();
            assertThat(signals.framebufferUsedMiB().getAsDouble() + signals.framebufferFreeMiB().getAsDouble())
                    .isBetween(total - 16.0, (double) total);
            assertThat(signals.ttftCount()).hasValue(3.0);
        }
    }
}
