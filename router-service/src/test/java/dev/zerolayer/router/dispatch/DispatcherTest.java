package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.fallback.Hedge;
import dev.zerolayer.contracts.fallback.Resilience;
import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.ApiException;
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
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * Bypass, not retry, against real local HTTP nodes: next node on 500/529/refused/TTFB timeout, on a redirect (never
 * followed) and on an oversized body; 529 when all fail, 504 past the deadline; a stream that stalls or whose node
 * crashes after the first byte fails within the TTFB limit instead of hanging.
 */
class DispatcherTest {

    private final Map<String, NodeRegistration> nodes = new HashMap<>();
    private final List<FakeNode> servers = new java.util.ArrayList<>();
    private final NodeGuards guards = new NodeGuards(new SimpleMeterRegistry());
    private static final int LIMIT = 64 * 1024;
    private final Dispatcher dispatcher = new Dispatcher(new UpstreamClient(1_000, LIMIT), guards);

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
        return flux(ranked, false, ttfb, deadline, trace).next().block(Duration.ofSeconds(20));
    }

    private Flux<byte[]> flux(List<String> ranked, boolean streaming, Duration ttfb, Duration deadline,
            DispatchTrace trace) {
        return flux(dispatcher, ranked, streaming, streaming, ttfb, deadline, trace);
    }

    /**
     * Dispatch of a body asking for a stream or not, the node's bytes passed on as they come (streaming) or joined
     * into one whole answer.
     */
    private Flux<byte[]> flux(Dispatcher with, List<String> ranked, boolean streamBody, boolean streaming,
            Duration ttfb, Duration deadline, DispatchTrace trace) {
        String body = streamBody ? "{\"model\":\"m\",\"stream\":true}" : "{\"model\":\"m\"}";
        return with.dispatch(ranked, id -> Optional.ofNullable(nodes.get(id)),
                registration -> new Attempt<byte[]>(new Attempt.Call("/v1/messages",
                        body.getBytes(StandardCharsets.UTF_8), List.of()), upstream -> streaming ? upstream
                        : upstream.collectList().map(Dispatcher::concat).flux(), Flux::error, "answer"),
                new Dispatcher.Limits(Resilience.defaults(), ttfb, deadline, deadline.plusSeconds(60)), trace);
    }

    private FakeNode server(String id, Mode mode) throws Exception {
        node(id, mode);
        return servers.get(servers.size() - 1);
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

    @Test
    void neverFollowsARedirectAndBypassesTheRedirectingNode() throws Exception {
        FakeNode target = new FakeNode(Mode.OK, false, "hello from the redirect target");
        servers.add(target);
        for (int status : List.of(301, 302, 303, 307, 308)) {
            String redirecting = "r" + status;
            server(redirecting, Mode.REDIRECT).redirectTo(status, target.baseUrl() + "/v1/messages");
            String good = node("good" + status, Mode.OK);
            DispatchTrace trace = new DispatchTrace();

            byte[] body = run(List.of(redirecting, good), Duration.ofSeconds(10), Duration.ofSeconds(20), trace);

            assertThat(new String(body, StandardCharsets.UTF_8)).contains("hello from good" + status);
            assertThat(trace.lastFailure()).isEqualTo("upstream_http_" + status);
        }
        assertThat(target.received()).isEmpty();
    }

    @Test
    void anOversizedBodyFailsTheAttemptAndTheNextNodeAnswersWhole() throws Exception {
        server("declared", Mode.OVERSIZE).oversize(LIMIT * 2, true);
        server("chunked", Mode.OVERSIZE).oversize(LIMIT * 2, false);
        server("fits", Mode.OVERSIZE).oversize(LIMIT / 2, false);
        DispatchTrace trace = new DispatchTrace();

        byte[] body = run(List.of("declared", "chunked", "fits"), Duration.ofSeconds(10), Duration.ofSeconds(20),
                trace);

        assertThat(trace.tried()).containsExactly("declared", "chunked", "fits");
        assertThat(trace.lastFailure()).isEqualTo(UpstreamClient.TOO_LARGE);
        assertThat(trace.servedNode()).isEqualTo("fits");
        // the whole answer of the node that fits, never a part of an oversized one
        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(text).startsWith("{").endsWith("}").contains("x".repeat(LIMIT / 2));
    }

    @Test
    void anOversizedStreamFailsOncePastTheLimitAfterItsFirstBytes() throws Exception {
        // a limit well above one socket read, so the stream has surely started when it is passed
        int limit = 1 << 20;
        Dispatcher roomy = new Dispatcher(new UpstreamClient(1_000, limit), guards);
        server("big", Mode.OVERSIZE).oversize(limit * 4, false);
        // the same limit guards a streamed answer: the stream fails once past it, after its first bytes
        List<byte[]> chunks = new java.util.ArrayList<>();
        StepVerifier.create(flux(roomy, List.of("big"), true, true, Duration.ofSeconds(10), Duration.ofSeconds(20),
                        new DispatchTrace()).doOnNext(chunks::add))
                .thenConsumeWhile(bytes -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(UpstreamFailure.class,
                        f -> assertThat(f.reason()).isEqualTo(UpstreamClient.TOO_LARGE)))
                .verify(Duration.ofSeconds(20));
        assertThat(chunks).isNotEmpty();
        assertThat(chunks.stream().mapToInt(c -> c.length).sum()).isLessThanOrEqualTo(limit);
    }

    @Test
    void aStreamWhoseNodeFreezesFailsWithinTheTtfbLimitOfItsLastChunk() throws Exception {
        FakeNode node = server("freezer", Mode.SLOW_STREAM).slowStream(Duration.ofMillis(50), 1_000);
        Duration ttfb = Duration.ofMillis(1_000);
        long[] lastChunk = new long[1];
        long[] failedAt = new long[1];
        Flux<byte[]> stream = flux(List.of("freezer"), true, ttfb, Duration.ofSeconds(10), new DispatchTrace())
                .doOnNext(bytes -> lastChunk[0] = System.nanoTime())
                .doOnError(e -> failedAt[0] = System.nanoTime());
        StepVerifier.create(stream)
                .expectNextCount(3)
                .then(node::freeze)
                .thenConsumeWhile(bytes -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(UpstreamFailure.class,
                        f -> assertThat(f.reason()).isEqualTo("upstream_stalled")))
                .verify(Duration.ofSeconds(10));
        long silence = Duration.ofNanos(failedAt[0] - lastChunk[0]).toMillis();
        assertThat(silence).isBetween(ttfb.toMillis() - 50, ttfb.toMillis() + 1_000);
        // the slot is freed once the error has gone downstream (doFinally runs after it, on the node's thread)
        await().atMost(Duration.ofSeconds(5)).until(() -> guards.inFlight("freezer") == 0);
    }

    @Test
    void aStreamWhoseNodeCrashesFailsAtOnce() throws Exception {
        FakeNode node = server("crasher", Mode.SLOW_STREAM).slowStream(Duration.ofMillis(50), 1_000);
        long[] crashedAt = new long[1];
        long[] failedAt = new long[1];
        StepVerifier.create(flux(List.of("crasher"), true, Duration.ofSeconds(5), Duration.ofSeconds(10),
                                new DispatchTrace()).doOnError(e -> failedAt[0] = System.nanoTime()))
                .expectNextCount(3)
                .then(() -> {
                    crashedAt[0] = System.nanoTime();
                    node.crash();
                })
                .thenConsumeWhile(bytes -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UpstreamFailure.class))
                .verify(Duration.ofSeconds(10));
        // well inside the 5 s TTFB limit: a dropped connection is seen at once, not by the stall limit
        assertThat(Duration.ofNanos(failedAt[0] - crashedAt[0]).toMillis()).isLessThan(2_000);
    }

    @Test
    void aNonStreamingAnswerThatStallsMidBodyIsBypassed() throws Exception {
        server("stalls", Mode.SLOW_STREAM).slowStream(Duration.ofMillis(2_000), 5);
        String good = node("good", Mode.OK);
        DispatchTrace trace = new DispatchTrace();
        // dispatched as a whole answer: its body comes in pieces 2 s apart, past the 400 ms limit
        byte[] body = flux(dispatcher, List.of("stalls", good), true, false, Duration.ofMillis(400),
                Duration.ofSeconds(10), trace).next().block(Duration.ofSeconds(20));
        assertThat(new String(body, StandardCharsets.UTF_8)).contains("hello from good");
        assertThat(trace.tried()).containsExactly("stalls", "good");
        assertThat(trace.lastFailure()).isEqualTo("upstream_stalled");
    }

    @Test
    void aLateFirstTokenIsHedgedOnTheNextNodeWhichServesAndTheLateOneIsCancelled() throws Exception {
        Hedging hedging = new Hedging(new SimpleMeterRegistry());
        Dispatcher hedged = new Dispatcher(new UpstreamClient(1_000, LIMIT), guards, EventLoops.none(), hedging);
        String late = node("late", Mode.HANG);
        String fast = node("fast", Mode.OK);
        Dispatcher.HedgePlan plan = new Dispatcher.HedgePlan(new Hedge(true, 100L, 0.0), "haiku", 10);
        DispatchTrace trace = new DispatchTrace();

        // the late node would hold the request for its whole 1.5 s TTFB limit; the hedge asks the next one at 100 ms
        byte[] body = hedgedFlux(hedged, List.of(late, fast), plan, trace).collectList().map(Dispatcher::concat)
                .block(Duration.ofSeconds(4));

        assertThat(new String(body, StandardCharsets.UTF_8)).contains("hello from fast");
        assertThat(trace.tried()).containsExactly("late", "fast");
        assertThat(trace.servedNode()).isEqualTo("fast");
        assertThat(trace.recoveries()).singleElement().satisfies(hedge -> {
            assertThat(hedge.kind()).isEqualTo(Recovery.Kind.HEDGE_WON);
            assertThat(hedge.fromNode()).isEqualTo("late");
            assertThat(hedge.toNode()).isEqualTo("fast");
            assertThat(hedge.addedMillis()).isEqualTo(100);
        });
        // the late node's attempt was cancelled: its slot is free again
        await().atMost(Duration.ofSeconds(5)).until(() -> guards.inFlight("late") == 0);

        // the budget (0 % of requests, one saved at the start) is spent: the next late node is waited for
        DispatchTrace unhedged = new DispatchTrace();
        byte[] waited = hedgedFlux(hedged, List.of(late, fast), plan, unhedged).collectList()
                .map(Dispatcher::concat).block(Duration.ofSeconds(20));
        assertThat(new String(waited, StandardCharsets.UTF_8)).contains("hello from fast");
        assertThat(unhedged.recoveries()).isEmpty();
        assertThat(unhedged.lastFailure()).isEqualTo("ttfb_timeout");
    }

    @Test
    void aWholeAnswerWhoseNodeHasBegunIsNotHedgedWhileItIsAssembled() throws Exception {
        Hedging hedging = new Hedging(new SimpleMeterRegistry());
        Dispatcher hedged = new Dispatcher(new UpstreamClient(1_000, LIMIT), guards, EventLoops.none(), hedging);
        // its first byte at once, the whole answer only after 10 deltas 60 ms apart: far past the 100 ms delay
        server("slow-whole", Mode.SLOW_STREAM).slowStream(Duration.ofMillis(60), 10);
        String other = node("other", Mode.OK);
        Dispatcher.HedgePlan plan = new Dispatcher.HedgePlan(new Hedge(true, 100L, 100.0), "haiku", 10);
        DispatchTrace trace = new DispatchTrace();

        byte[] body = hedged.dispatch(List.of("slow-whole", other), id -> Optional.ofNullable(nodes.get(id)),
                registration -> new Attempt<byte[]>(new Attempt.Call("/v1/messages",
                        "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8), List.of()),
                        upstream -> upstream.collectList().map(Dispatcher::concat).flux(), Flux::error, "answer"),
                new Dispatcher.Limits(Resilience.defaults(), Duration.ofMillis(1_500), Duration.ofSeconds(10),
                        Duration.ofSeconds(60), Duration.ofMillis(1_500), plan), trace)
                .next().block(Duration.ofSeconds(10));

        assertThat(new String(body, StandardCharsets.UTF_8)).contains("message_stop");
        assertThat(trace.tried()).containsExactly("slow-whole");
        assertThat(trace.recoveries()).isEmpty();
    }

    private Flux<byte[]> hedgedFlux(Dispatcher with, List<String> ranked, Dispatcher.HedgePlan plan,
            DispatchTrace trace) {
        byte[] body = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
        Duration ttfb = Duration.ofMillis(1_500);
        return with.dispatch(ranked, id -> Optional.ofNullable(nodes.get(id)),
                registration -> new Attempt<byte[]>(new Attempt.Call("/v1/messages", body, List.of()),
                        upstream -> upstream, Flux::error, "answer"),
                new Dispatcher.Limits(Resilience.defaults(), ttfb, Duration.ofSeconds(10), Duration.ofSeconds(60),
                        ttfb, plan), trace);
    }
}
