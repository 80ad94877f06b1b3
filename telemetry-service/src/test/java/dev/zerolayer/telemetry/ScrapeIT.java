package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.telemetry.health.HealthTracker;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An inventory node scraped over real HTTP: dcgm-exporter and vLLM text drive its health; malformed text is counted. */
@ExtendWith(SharedKafka.class)
class ScrapeIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String dcgm(double sm) {
        return """
                # HELP DCGM_FI_PROF_SM_ACTIVE The ratio of cycles an SM has at least 1 warp assigned.
                # TYPE DCGM_FI_PROF_SM_ACTIVE gauge
                DCGM_FI_PROF_SM_ACTIVE{gpu="0",Hostname="gpu-node-7"} %s
                DCGM_FI_PROF_SM_ACTIVE{gpu="1",Hostname="gpu-node-7"} %s
                DCGM_FI_PROF_SM_ACTIVE{gpu="0",Hostname="other-node"} 0.01
                DCGM_FI_DEV_FB_USED{gpu="0",Hostname="gpu-node-7"} 30000
                DCGM_FI_DEV_FB_FREE{gpu="0",Hostname="gpu-node-7"} 10960
                DCGM_FI_DEV_XID_ERRORS{gpu="0",Hostname="gpu-node-7"} 0
                """.formatted(sm, sm);
    }

    private static final String VLLM = """
            # TYPE vllm:num_requests_running gauge
            vllm:num_requests_running{model_name="llama"} 5.0
            vllm:num_requests_waiting{model_name="llama"} 3.0
            vllm:kv_cache_usage_perc{model_name="llama"} 0.42
            """;

    @Test
    void scrapedSmSaturationMakesTheNodeUnavailableAndMalformedTextChangesNothing() throws Exception {
        // Given a node whose dcgm-exporter and vLLM endpoints are real HTTP servers
        AtomicReference<String> dcgmText = new AtomicReference<>(dcgm(0.40));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/dcgm", exchange -> respond(exchange, dcgmText.get()));
        server.createContext("/vllm", exchange -> respond(exchange, VLLM));
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        String p = "zerolayer.telemetry.nodes[0].";
        try (RunningService service = RunningService.start(TelemetryApplication.class,
                SharedKafka.broker().bootstrapServers(),
                "zerolayer.telemetry.scrape-interval=100ms",
                p + "node-id=vllm-scraped-1", p + "tier=sonnet", p + "cluster=sonnet-scraped",
                p + "upstream-base-url=" + base, p + "protocol=openai", p + "model=llama", p + "capacity=8",
                p + "dcgm-url=" + base + "/dcgm", p + "vllm-url=" + base + "/vllm",
                p + "gpu-labels.Hostname=gpu-node-7", p + "engine-labels.model_name=llama")) {
            HealthTracker tracker = service.bean(HealthTracker.class);

            // Then its scraped signals make it HEALTHY with vLLM's queue and KV usage
            await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
                NodeHealth health = tracker.snapshot("vllm-scraped-1").orElseThrow();
                assertThat(health.state()).isEqualTo(NodeState.HEALTHY);
                assertThat(health.queueDepth()).isEqualTo(3);
                assertThat(health.kvCacheUsage()).isEqualTo(0.42);
            });

            // When its SMs run above 95 %, then it is UNAVAILABLE after the hold time
            dcgmText.set(dcgm(0.99));
            await().atMost(WAIT).until(() -> tracker.snapshot("vllm-scraped-1").orElseThrow().state()
                    == NodeState.UNAVAILABLE);

            // When the exporter serves garbage, the failure is counted and the state is untouched
            dcgmText.set("DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\" 0.1\n");
            MeterRegistry meters = service.bean(MeterRegistry.class);
            await().atMost(WAIT).until(() -> meters.find("zerolayer.telemetry.scrape.failures")
                    .tag("reason", "malformed").counter() != null);
            assertThat(tracker.snapshot("vllm-scraped-1").orElseThrow().state()).isEqualTo(NodeState.UNAVAILABLE);

            // When SM drops back, it recovers
            dcgmText.set(dcgm(0.30));
            await().atMost(WAIT).until(() -> tracker.snapshot("vllm-scraped-1").orElseThrow().state()
                    == NodeState.HEALTHY);
        } finally {
            server.stop(0);
        }
    }

    private static void respond(com.sun.net.httpserver.HttpExchange exchange, String text) throws java.io.IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
