package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.Resilience;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.api.ApiException;
import dev.zerolayer.router.testing.FakeNode;
import dev.zerolayer.router.testing.FakeNode.Mode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bypass, not retry, against real local HTTP nodes: next node on 500/529/refused/TTFB timeout, 529 when all fail, 504 past the deadline. */
class DispatcherTest {

    private final Map<String, NodeRegistration> nodes = new HashMap<>();
    private final List<FakeNode> servers = new java.util.ArrayList<>();
    private final NodeGuards guards = new NodeGuards(new SimpleMeterRegistry());
    private final Dispatcher dispatcher = new Dispatcher(new UpstreamClient(1_000, 1 << 20), guards);

    @AfterEach
    void stop() {
        servers.forEach(FakeNode::close);
    }

    private String node(String id, Mode mode) throws Exception {
        FakeNode server = new FakeNode(mode, false, "hello from " + id);
        servers.add(server);
        register(id, server.baseUrl());
        return id;
    }

    private void register(String id, String url) {
        nodes.put(id, NodeRegistration.of(id, "haiku", "c", null, url, UpstreamProtocol.ANTHROPIC, "m", 4, "test"));
    }

    private static String refusedUrl() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    private byte[] run(List<String> ranked, Duration ttfb, Duration deadline, DispatchTrace trace) {
        return dispatcher.dispatch(ranked, id -> Optional.ofNullable(nodes.get(id)),
                        registration -> new Dispatcher.Call("/v1/messages",
                                "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8), Map.of()),
                        false, Resilience.defaults(), ttfb, deadline, trace)
                .next().block(Duration.ofSeconds(20));
    }

    @Test
    void bypassesFailingNodesInOrderAndServesFromTheFirstHealthyOne() throws Exception {
        String failing = node("n500", Mode.FAIL_500);
        String overloaded = node("n529", Mode.FAIL_529);
        register("refused", refusedUrl());
        String hanging = node("hang", Mode.HANG);
        String good = node("good", Mode.OK);
        DispatchTrace trace = new DispatchTrace();

        byte[] body = run(List.of(failing, overloaded, "refused", hanging, good), Duration.ofMillis(400),
                Duration.ofSeconds(10), trace);

        assertThat(new String(body, StandardCharsets.UTF_8)).contains("hello from good");
        assertThat(trace.tried()).containsExactly("n500", "n529", "refused", "hang", "good");
        assertThat(trace.servedNode()).isEqualTo("good");
        assertThat(trace.bypassed()).isTrue();
        assertThat(trace.lastFailure()).isEqualTo("ttfb_timeout");
        assertThat(guards.inFlight("good")).isZero();
        assertThat(guards.inFlight("hang")).isZero();
    }

    @Test
    void failsWith529WhenEveryRankedNodeFailsAndTriesEachOnce() throws Exception {
        String a = node("a", Mode.FAIL_500);
        String b = node("b", Mode.FAIL_500);
        DispatchTrace trace = new DispatchTrace();
        try {
            run(List.of(a, b), Duration.ofSeconds(2), Duration.ofSeconds(10), trace);
            throw new AssertionError("expected a failure");
        } catch (ApiException e) {
            assertThat(e.status()).isEqualTo(529);
            assertThat(e.type()).isEqualTo("overloaded_error");
        }
        assertThat(trace.tried()).containsExactly("a", "b");
        assertThat(servers.get(0).received()).hasSize(1);
        assertThat(servers.get(1).received()).hasSize(1);
    }

    @Test
    void failsWith504WhenTheDeadlinePassesBeforeAnyFirstByte() throws Exception {
        String hanging = node("slow", Mode.HANG);
        String good = node("late", Mode.OK);
        DispatchTrace trace = new DispatchTrace();
        try {
            run(List.of(hanging, good), Duration.ofSeconds(5), Duration.ofMillis(300), trace);
            throw new AssertionError("expected a timeout");
        } catch (ApiException e) {
            assertThat(e.status()).isEqualTo(504);
        }
        assertThat(trace.tried()).containsExactly("slow");
    }
}
