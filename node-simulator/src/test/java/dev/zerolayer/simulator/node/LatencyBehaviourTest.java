package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.support.Sse;
import dev.zerolayer.simulator.support.TestNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * With its latency model on, a node's time to first token covers warm-up, queueing and prefill of the uncached prompt
 * only; concurrency beyond capacity waits. Relations are asserted, not exact timings.
 */
class LatencyBehaviourTest {

    /** Time from sending a streaming request until its response (headers and first frames) arrives, in nanoseconds. */
    static long timeToFirstByte(TestNode node, String prompt, int maxTokens) throws IOException {
        long start = System.nanoTime();
        HttpResponse<InputStream> response = node.postStreaming("/v1/messages",
                NodeApiTest.anthropic(prompt, maxTokens, true));
        long ttfb = System.nanoTime() - start;
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Sse.read(response.body())).isNotEmpty();
        return ttfb;
    }

    @Test
    void aCachedPrefixSkipsPrefillAndAColdNodePaysItsWarmUp() throws IOException {
        try (TestNode node = TestNode.builder().profile(HardwareProfiles.A100_40G_X4).latency(true).start()) {
            long cold = timeToFirstByte(node, "hello", 1);
            long warm = timeToFirstByte(node, "hello again", 1);
            String prompt = " the".repeat(4000);
            assertThat(PromptTokenizer.shared().count(prompt)).isGreaterThanOrEqualTo(4000);

            long uncached = timeToFirstByte(node, prompt, 1);
            long cached = timeToFirstByte(node, prompt, 1);

            // 4,000 tokens at 8,836 tokens/s is ~450 ms of prefill; fully cached, only the 16-token tail is prefilled
            assertThat(uncached).isGreaterThan(cached + Duration.ofMillis(200).toNanos());
            // the first request of a cold node waited out the 550 ms CUDA-graph warm-up
            assertThat(cold).isGreaterThan(Duration.ofMillis(500).toNanos()).isGreaterThan(warm);
        }
    }

    @Test
    void requestsBeyondCapacityWaitForASlot() {
        try (TestNode node = TestNode.builder().latency(true).capacity(1).start()) {
            node.post("/v1/messages", NodeApiTest.anthropic("warm up", 1, false));
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest slow = HttpRequest.newBuilder(URI.create(node.url("/v1/messages")))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(NodeApiTest.anthropic("count slowly", 30, false)))
                    .build();

            long start = System.nanoTime();
            CompletableFuture<HttpResponse<String>> first = client.sendAsync(slow, HttpResponse.BodyHandlers.ofString());
            await().atMost(Duration.ofSeconds(5)).until(() -> node.node().snapshot().running() == 1);
            CompletableFuture<HttpResponse<String>> second = client.sendAsync(slow, HttpResponse.BodyHandlers.ofString());

            // the second request waits while the first holds the only slot
            await().atMost(Duration.ofSeconds(5)).until(() -> node.node().snapshot().waiting() == 1);
            assertThat(first.join().statusCode()).isEqualTo(200);
            long firstDone = System.nanoTime() - start;
            assertThat(second.join().statusCode()).isEqualTo(200);
            long secondDone = System.nanoTime() - start;
            // 30 tokens at ~57 tokens/s take ~0.5 s each, one after the other
            assertThat(secondDone).isGreaterThan(firstDone + Duration.ofMillis(300).toNanos());
            await().atMost(Duration.ofSeconds(5)).until(() -> node.node().snapshot().running() == 0);
            assertThat(node.node().snapshot().waiting()).isZero();
        }
    }
}
