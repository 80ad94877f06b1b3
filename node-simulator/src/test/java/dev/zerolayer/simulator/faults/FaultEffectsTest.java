package dev.zerolayer.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.node.NodeStatus;
import dev.zerolayer.simulator.node.SimulatedNode;
import dev.zerolayer.simulator.support.Sse;
import dev.zerolayer.simulator.support.TestNode;
import dev.zerolayer.simulator.telemetry.TelemetryPublisher;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Every fault type shows its observable effect: on latency, on telemetry, or as failed requests and connections. */
class FaultEffectsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String anthropic(String prompt, int maxTokens, boolean stream) {
        return "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":" + JSON.writeValueAsString(prompt) + "}]}";
    }

    private static String openAi(String prompt, int maxTokens, boolean stream) {
        return "{\"model\":\"gpt-4o-mini\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":" + JSON.writeValueAsString(prompt) + "}]}";
    }

    private static TelemetrySample sample(SimulatedNode node) {
        return TelemetryPublisher.sample(node, node.snapshot());
    }

    private static long elapsed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    /** A streamed request's time to first byte and the intervals between its token frames, in milliseconds. */
    private record Timing(double ttfbMs, List<Double> intervalsMs, List<Sse.Frame> frames) {

        double intervalStdDev() {
            double mean = intervalsMs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            return Math.sqrt(intervalsMs.stream().mapToDouble(v -> (v - mean) * (v - mean)).average().orElse(0));
        }
    }

    private static Timing stream(TestNode node, String prompt, int maxTokens) throws IOException {
        long start = System.nanoTime();
        HttpResponse<InputStream> response = node.postStreaming("/v1/messages", anthropic(prompt, maxTokens, true));
        double ttfb = (System.nanoTime() - start) / 1e6;
        List<Sse.Frame> frames = Sse.read(response.body());
        List<Long> arrivals = frames.stream().filter(f -> "content_block_delta".equals(f.event()))
                .map(Sse.Frame::arrivedNanos).toList();
        List<Double> intervals = new ArrayList<>();
        for (int i = 1; i < arrivals.size(); i++) {
            intervals.add((arrivals.get(i) - arrivals.get(i - 1)) / 1e6);
        }
        return new Timing(ttfb, intervals, frames);
    }

    @Test
    void smSaturationHoldsSmAboveNinetyFivePercentAndSlowsRequests() {
        try (TestNode node = TestNode.builder().latency(true).start()) {
            node.post("/v1/messages", anthropic("warm up", 1, false));
            assertThat(sample(node.node()).smActive()).isLessThan(0.9);
            long normal = elapsed(() -> node.post("/v1/messages", anthropic("twelve tokens please", 12, false)));

            node.node().inject(FaultType.SM_SATURATION, Duration.ofSeconds(10), 1.0);

            assertThat(sample(node.node()).smActive()).isGreaterThan(0.95);
            long saturated = elapsed(() -> node.post("/v1/messages", anthropic("twelve tokens please", 12, false)));
            // ~3x slower by the model; asserted with room for a busy machine
            assertThat(saturated).isGreaterThan((long) (normal * 1.5));
        }
    }

    @Test
    void cudaGraphWarmupStallsRequestsWhileTelemetrySaysWarmingThenServes() {
        try (TestNode node = TestNode.fast()) {
            long start = System.nanoTime();
            node.node().inject(FaultType.CUDA_GRAPH_WARMUP, Duration.ofMillis(700), 1.0);

            assertThat(node.node().status()).isEqualTo(NodeStatus.WARMING);
            assertThat(sample(node.node()).warmingUp()).isTrue();
            HttpResponse<String> stalled = node.post("/v1/messages", anthropic("are you there?", 3, false));

            assertThat(stalled.statusCode()).isEqualTo(200);
            assertThat(System.nanoTime() - start).isGreaterThan(Duration.ofMillis(600).toNanos());
            assertThat(node.node().status()).isEqualTo(NodeStatus.SERVING);
            assertThat(sample(node.node()).warmingUp()).isFalse();
        }
    }

    @Test
    void loadSpikeRaisesRunningAndWaitingSharply() {
        try (TestNode node = TestNode.fast()) {
            TelemetrySample before = sample(node.node());
            node.node().inject(FaultType.LOAD_SPIKE, Duration.ofSeconds(10), 1.0);
            TelemetrySample during = sample(node.node());

            assertThat(before.requestsRunning()).isZero();
            assertThat(during.requestsRunning()).isEqualTo(16);
            assertThat(during.requestsWaiting()).isEqualTo(32);
            assertThat(during.smActive()).isGreaterThan(before.smActive() + 0.5);
            // real requests still get through the one slot the spike leaves
            assertThat(node.post("/v1/messages", anthropic("still there?", 3, false)).statusCode()).isEqualTo(200);

            node.node().clearFaults();
            await().atMost(Duration.ofSeconds(5)).until(() -> sample(node.node()).requestsRunning() == 0);
            assertThat(sample(node.node()).requestsWaiting()).isZero();
        }
    }

    @Test
    void gatewayCongestionRaisesTimeToFirstByteWithSteadyChunks() throws IOException {
        try (TestNode node = TestNode.fast()) {
            Timing normal = stream(node, "a steady stream", 8);
            node.node().inject(FaultType.GATEWAY_CONGESTION, Duration.ofSeconds(10), 1.0);
            Timing congested = stream(node, "a steady stream", 8);

            // 270 ms are added before the first byte; the chunks after it keep their pace
            assertThat(congested.ttfbMs()).isGreaterThan(260).isGreaterThan(normal.ttfbMs());
            assertThat(congested.intervalsMs()).hasSize(7);
            assertThat(congested.intervalStdDev()).isLessThan(50);
        }
    }

    @Test
    void ttftSpikesMakeTheirShareOfFirstTokensLateAndLeaveTheRestAlone() throws IOException {
        try (TestNode node = TestNode.fast()) {
            Timing normal = stream(node, "a first token on time", 4);
            node.node().inject(FaultType.TTFT_SPIKES, Duration.ofSeconds(30), 1.0);
            Timing late = stream(node, "a first token late", 4);
            node.node().inject(FaultType.TTFT_SPIKES, Duration.ofSeconds(30), 0.0);
            Timing spared = stream(node, "a first token spared", 4);

            // every request of a share of 1 waits 300-900 ms more for its first token; a share of 0 spares them all
            assertThat(late.ttfbMs()).isGreaterThan(normal.ttfbMs() + 250);
            assertThat(late.intervalStdDev()).isLessThan(50);
            assertThat(spared.ttfbMs()).isLessThan(normal.ttfbMs() + 250);
        }
    }

    @Test
    void gpuBandwidthBottleneckVariesChunkIntervalsWithSteadyFirstByteAndSaturatesNvlink() throws IOException {
        try (TestNode node = TestNode.builder().profile(HardwareProfiles.A100_40G_X4).start()) {
            Timing normal = stream(node, "a jittery stream", 6);
            double nvlinkBefore = sample(node.node()).nvlinkSaturation();
            node.node().inject(FaultType.GPU_BANDWIDTH, Duration.ofSeconds(10), 1.0);
            Timing jittery = stream(node, "a jittery stream", 6);

            // no delay before the first byte (congestion would add 270 ms), but widely varying chunk intervals
            assertThat(jittery.ttfbMs()).isLessThan(250);
            assertThat(jittery.intervalStdDev()).isGreaterThan(40).isGreaterThan(normal.intervalStdDev() + 30);
            assertThat(sample(node.node()).nvlinkSaturation()).isGreaterThanOrEqualTo(0.85).isGreaterThan(nvlinkBefore);
        }
    }

    @Test
    void errorsFailTheirShareOfRequestsInEachApisShape() {
        try (TestNode node = TestNode.fast()) {
            node.node().inject(FaultType.ERRORS, Duration.ofSeconds(10), 1.0);
            List<Integer> anthropicStatuses = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> response = node.post("/v1/messages", anthropic("hello " + i, 5, false));
                anthropicStatuses.add(response.statusCode());
                JsonNode body = JSON.readTree(response.body());
                assertThat(body.get("type").stringValue()).isEqualTo("error");
                assertThat(body.get("error").get("type").stringValue())
                        .isEqualTo(response.statusCode() == 529 ? "overloaded_error" : "api_error");
            }
            assertThat(anthropicStatuses).containsOnly(500, 529).contains(500, 529);

            HttpResponse<String> openAi = node.post("/v1/chat/completions", openAi("hello", 5, false));
            assertThat(openAi.statusCode()).isIn(500, 503);
            assertThat(JSON.readTree(openAi.body()).get("error").get("type").stringValue()).isEqualTo("server_error");

            node.node().inject(FaultType.ERRORS, Duration.ofSeconds(10), 0.5);
            List<Integer> mixed = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                mixed.add(node.post("/v1/messages", anthropic("hello " + i, 5, false)).statusCode());
            }
            assertThat(mixed).contains(200).containsAnyOf(500, 529);
            assertThat(node.node().snapshot().failed()).isGreaterThanOrEqualTo(13);
        }
    }

    @Test
    void crashRefusesConnectionsLosesTheCacheAndRestartsColdOnTheSamePort() {
        try (TestNode node = TestNode.fast()) {
            int port = node.node().port();
            assertThat(node.post("/v1/messages", anthropic("remember me ".repeat(40), 3, false)).statusCode())
                    .isEqualTo(200);
            assertThat(node.node().kvCache().size()).isPositive();
            List<NodeTelemetry> published = new CopyOnWriteArrayList<>();
            TelemetryPublisher telemetry = new TelemetryPublisher(() -> List.of(node.node()), published::add,
                    Duration.ofMillis(100), Duration.ofSeconds(10));

            node.node().inject(FaultType.CRASH, Duration.ofMillis(800), 1.0);

            assertThat(node.node().status()).isEqualTo(NodeStatus.CRASHED);
            assertThatThrownBy(() -> HTTP.send(HttpRequest.newBuilder(URI.create(node.url("/health"))).GET().build(),
                    HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
            assertThat(node.node().kvCache().size()).isZero();
            assertThat(node.kvEvents).extracting(e -> e.type()).contains(KvEventType.ALL_BLOCKS_CLEARED);
            telemetry.tick();
            assertThat(published).isEmpty();

            await().atMost(Duration.ofSeconds(10)).until(() -> node.node().status() == NodeStatus.SERVING);
            assertThat(node.node().port()).isEqualTo(port);
            assertThat(node.node().restarts()).isEqualTo(1);
            assertThat(node.get("/health").statusCode()).isEqualTo(200);
            assertThat(node.kvEvents.stream().filter(e -> e.type() == KvEventType.ALL_BLOCKS_CLEARED)).hasSize(2);
            telemetry.tick();
            assertThat(published).hasSize(2).first().isInstanceOf(dev.zerolayer.contracts.telemetry.NodeRegistration.class);
        }
    }

    @Test
    void streamCutClosesStreamsMidWay() throws IOException {
        try (TestNode node = TestNode.fast(); TestNode openAiNode = TestNode.builder()
                .protocol(UpstreamProtocol.OPENAI).start()) {
            node.node().inject(FaultType.STREAM_CUT, Duration.ofSeconds(10), 1.0);
            openAiNode.node().inject(FaultType.STREAM_CUT, Duration.ofSeconds(10), 1.0);

            // the whole 200 tokens (vLLM's ignore_eos): a long answer, so the cut leaves frames before it. Whether the
            // client reads what was written before the close depends on how its socket takes the close (a reset can
            // drop everything); every stream is cut here, so the first of three that delivered anything is checked
            List<Sse.Frame> cut = List.of();
            for (int attempt = 0; attempt < 3 && cut.isEmpty(); attempt++) {
                cut = Sse.read(node.postStreaming("/v1/messages", anthropic("tell me a long story", 200, true)
                        .replace("\"stream\":true", "\"stream\":true,\"ignore_eos\":true")).body());
            }
            assertThat(cut).extracting(Sse.Frame::event).contains("message_start")
                    .doesNotContain("message_stop", "message_delta");
            assertThat(cut.stream().filter(f -> "content_block_delta".equals(f.event())).count()).isLessThan(200);

            // the same for the OpenAI protocol: the first of three cut streams that delivered anything
            List<Sse.Frame> cutOpenAi = List.of();
            for (int attempt = 0; attempt < 3 && cutOpenAi.isEmpty(); attempt++) {
                HttpResponse<InputStream> openAi = openAiNode.postStreaming("/v1/chat/completions",
                        openAi("tell me a long story", 200, true));
                cutOpenAi = Sse.read(openAi.body());
            }
            assertThat(cutOpenAi).extracting(Sse.Frame::data).isNotEmpty().doesNotContain("[DONE]");

            // non-streaming answers are not affected
            assertThat(node.post("/v1/messages", anthropic("short", 3, false)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void streamStallStopsStreamsMidWayAndHoldsThemOpenUntilTheClientGivesUp() throws IOException {
        try (TestNode node = TestNode.fast()) {
            // Given a node stalling every stream
            node.node().inject(FaultType.STREAM_STALL, Duration.ofSeconds(30), 1.0);
            long failedBefore = node.node().snapshot().failed();

            // When a client streams a long answer, reading line by line
            HttpResponse<InputStream> response = node.postStreaming("/v1/messages",
                    anthropic("tell me a long story", 200, true));
            List<String> lines = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> ended = CompletableFuture.runAsync(() -> {
                try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(response.body(),
                        java.nio.charset.StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException closed) {
                    // the client gave up
                }
            });

            // Then the answer starts, stops before its end, and the connection stays open holding the node's slot
            await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains("event: message_start"));
            await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> !ended.isDone());
            assertThat(lines).doesNotContain("event: message_stop");
            assertThat(lines.stream().filter("event: content_block_delta"::equals).count()).isLessThan(200);
            assertThat(node.node().snapshot().running()).isEqualTo(1);

            // When the client gives up, the node counts the request failed and frees the slot
            response.body().close();
            await().atMost(Duration.ofSeconds(5)).until(() -> node.node().snapshot().failed() == failedBefore + 1
                    && node.node().snapshot().running() == 0);

            // And non-streaming answers are not affected
            assertThat(node.post("/v1/messages", anthropic("short", 3, false)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void pcieErrorsRaiseXidCountersAndSlowOrFailSomeRequests() {
        try (TestNode node = TestNode.builder().capacity(64).start()) {
            node.node().inject(FaultType.PCIE_ERRORS, Duration.ofSeconds(30), 1.0);

            await().atMost(Duration.ofSeconds(5)).until(() -> sample(node.node()).xidErrors() >= 2);
            assertThat(node.node().snapshot().lastXid()).isEqualTo(79);
            assertThat(node.get("/metrics").body()).contains("DCGM_FI_DEV_XID_ERRORS{gpu=\"0\"")
                    .containsPattern("DCGM_FI_DEV_PCIE_REPLAY_COUNTER\\{gpu=\"0\"[^}]*} [1-9]");

            List<CompletableFuture<long[]>> calls = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(node.url("/v1/messages")))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(anthropic("copy tensors " + i, 2, false))).build();
                long start = System.nanoTime();
                calls.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                        .thenApply(r -> new long[] {r.statusCode(), System.nanoTime() - start}));
            }
            List<long[]> results = calls.stream().map(CompletableFuture::join).toList();

            assertThat(results).anySatisfy(r -> assertThat(r[0]).isEqualTo(500));
            assertThat(results).anySatisfy(r -> {
                assertThat(r[0]).isEqualTo(200);
                assertThat(r[1]).isGreaterThan(Duration.ofMillis(190).toNanos());
            });
            assertThat(results.stream().filter(r -> r[0] == 200).count()).isGreaterThan(40);
        }
    }

    @Test
    void clearingFaultsEndsThemAllAtOnce() {
        try (TestNode node = TestNode.fast()) {
            node.node().inject(FaultType.ERRORS, Duration.ofMinutes(5), 1.0);
            node.node().inject(FaultType.CRASH, Duration.ofMinutes(5), 1.0);
            assertThat(node.node().faults().list()).hasSize(2);

            assertThat(node.node().clearFaults()).extracting(ActiveFault::type)
                    .containsExactly(FaultType.ERRORS, FaultType.CRASH);

            await().atMost(Duration.ofSeconds(10)).until(() -> node.node().status() == NodeStatus.SERVING);
            assertThat(node.post("/v1/messages", anthropic("back?", 3, false)).statusCode()).isEqualTo(200);
        }
    }
}
