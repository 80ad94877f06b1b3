package dev.zerolayer.cache.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Against a real JeroMQ PUB socket (as vLLM's ZmqEventPublisher binds one): subscribed messages of the topic prefix are
 * translated and handed on in order, other topics are filtered out, malformed ones are counted and skipped, and events
 * the publisher refused are kept and sent later; a connection whose handshake stalls is dropped and retried.
 */
class VllmKvBridgeTest {

    private static final long PROBE = 77L;

    @Test
    void bridgesARealPubSocketCountingAndSkippingMalformedMessages() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        List<KvCacheEvent> published = new CopyOnWriteArrayList<>();
        AtomicBoolean brokerUp = new AtomicBoolean(false);
        try (ZContext context = new ZContext()) {
            ZMQ.Socket pub = context.createSocket(SocketType.PUB);
            int port = pub.bindToRandomPort("tcp://127.0.0.1");
            VllmKvBridge bridge = new VllmKvBridge(
                    List.of(new VllmKvBridge.Endpoint("vllm-a", "tcp://127.0.0.1:" + port, "kv@")),
                    events -> brokerUp.get() && published.addAll(events), Clock.systemUTC(), 1000, meters);
            bridge.start();
            try {
                // Readiness handshake: PUB drops messages until the SUB is connected and subscribed, so send a probe
                // until one arrives. Afterwards every message sent on this connection arrives, in order.
                // In this thread: a ZeroMQ socket must not be used from Awaitility's polling threads.
                long[] seq = {0};
                await().pollInSameThread().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                        .until(() -> {
                            send(pub, "kv@vllm-a", seq[0]++, VllmStreamTranslatorTest.stored("GPU", PROBE));
                            return bridge.queued() > 0;
                        });

                send(pub, "other@x", seq[0]++, VllmFrames.fixtureBatch()); // filtered by the subscription
                send(pub, "kv@vllm-a", seq[0]++, new byte[] {(byte) 0x93, 1}); // truncated msgpack
                pub.send("kv@vllm-a".getBytes(), ZMQ.SNDMORE);
                pub.send(new byte[] {1, 2}); // two frames only
                send(pub, "kv@vllm-a", seq[0]++, VllmFrames.fixtureBatch());
                send(pub, "kv@vllm-a", seq[0]++, new byte[0]); // malformed: marks the end of what was sent

                // Then, once the last message is counted, everything before it was handled (one connection, in order)
                await().atMost(Duration.ofSeconds(20)).until(() -> malformed(meters) == 3.0);
                int queued = bridge.queued();
                assertThat(published).as("nothing goes while the broker refuses").isEmpty();

                // When the broker takes events again, everything queued goes, in order
                brokerUp.set(true);
                await().atMost(Duration.ofSeconds(10)).until(() -> bridge.queued() == 0);
                assertThat(published).hasSize(queued).hasSizeGreaterThan(3);
                List<KvCacheEvent> probes = published.subList(0, queued - 3);
                assertThat(probes).as("only probes before the fixture: the other topic was filtered out")
                        .allSatisfy(event -> {
                            assertThat(event.type()).isEqualTo(KvEventType.BLOCK_STORED);
                            assertThat(event.blockHashes()).containsExactly(PROBE);
                        });
                List<KvCacheEvent> last = published.subList(queued - 3, queued);
                assertThat(last).extracting(KvCacheEvent::type).containsExactly(KvEventType.BLOCK_STORED,
                        KvEventType.BLOCK_REMOVED, KvEventType.ALL_BLOCKS_CLEARED);
                assertThat(last.get(0).blockHashes()).isEqualTo(VllmFrames.CAPTURED);
                assertThat(published).extracting(KvCacheEvent::sequence).isSorted().doesNotHaveDuplicates();
                assertThat(meters.counter("zerolayer.cache.bridge.frames", "outcome", "accepted").count())
                        .isEqualTo(probes.size() + 1.0);
            } finally {
                bridge.stop();
            }
        }
    }

    @Test
    void aConnectionWhoseHandshakeStallsIsDroppedAndRetried() throws Exception {
        // A peer that accepts TCP connections but never speaks ZMTP: the state a JeroMQ poller race leaves a fresh
        // connection in (see VllmKvBridge#DEFAULT_HANDSHAKE_TIMEOUT). Without the timeout, JeroMQ waits 30 s.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            silent.setSoTimeout(10_000);
            VllmKvBridge bridge = new VllmKvBridge(
                    List.of(new VllmKvBridge.Endpoint("vllm-a", "tcp://127.0.0.1:" + silent.getLocalPort(), "")),
                    event -> true, Clock.systemUTC(), 10, Duration.ofMillis(300), new SimpleMeterRegistry());
            bridge.start();
            try (Socket first = silent.accept()) {
                long firstAt = System.nanoTime();
                try (Socket second = silent.accept()) {
                    Duration between = Duration.ofNanos(System.nanoTime() - firstAt);
                    assertThat(second.getPort()).isNotEqualTo(first.getPort());
                    assertThat(between).isLessThan(Duration.ofSeconds(5)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
                }
            } finally {
                bridge.stop();
            }
        }
    }

    private static double malformed(SimpleMeterRegistry meters) {
        return meters.counter("zerolayer.cache.bridge.frames", "outcome", "malformed").count();
    }

    @Test
    void queuedEventsGoInOrderedBatchesWholeOrNotAtAll() throws Exception {
        // Given a bridge (not started) with more events queued than one batch holds, and a publisher that refuses once
        List<List<KvCacheEvent>> batches = new ArrayList<>();
        AtomicBoolean refuse = new AtomicBoolean(true);
        VllmKvBridge bridge = new VllmKvBridge(List.of(new VllmKvBridge.Endpoint("vllm-a", "tcp://127.0.0.1:1", "")),
                events -> !refuse.getAndSet(false) && batches.add(List.copyOf(events)), Clock.systemUTC(),
                10 * VllmKvBridge.MAX_BATCH, new SimpleMeterRegistry());
        long seq = 0;
        while (bridge.queued() <= VllmKvBridge.MAX_BATCH) {
            assertThat(bridge.handle(0, VllmFrames.frames("kv@vllm-a", seq++,
                    VllmStreamTranslatorTest.stored("GPU", PROBE)))).isTrue();
        }
        int queued = bridge.queued();
        // When the first batch is refused, nothing goes and nothing is lost
        assertThat(bridge.drain()).isZero();
        assertThat(bridge.queued()).isEqualTo(queued);
        // Then the next drain sends everything in batches of at most MAX_BATCH, in order
        assertThat(bridge.drain()).isEqualTo(queued);
        assertThat(bridge.queued()).isZero();
        assertThat(batches).hasSize(2);
        assertThat(batches.get(0)).hasSize(VllmKvBridge.MAX_BATCH);
        assertThat(batches.stream().flatMap(List::stream).map(KvCacheEvent::sequence).toList()).hasSize(queued)
                .isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aRelayStartedLaterNumbersItsEventsAboveOneThatRanBefore() throws Exception {
        // Given two replicas' bridges for one node: B's built first (its replica started earlier), A's 5 minutes later
        MutableClock clock = new MutableClock(Instant.parse("2026-12-04T12:00:00Z"));
        VllmKvBridge.Endpoint node = new VllmKvBridge.Endpoint("vllm-a", "tcp://127.0.0.1:1", "");
        List<KvCacheEvent> byA = new CopyOnWriteArrayList<>();
        List<KvCacheEvent> byB = new CopyOnWriteArrayList<>();
        VllmKvBridge b = new VllmKvBridge(List.of(node), byB::addAll, clock, 100, new SimpleMeterRegistry());
        clock.advance(Duration.ofMinutes(5));
        VllmKvBridge a = new VllmKvBridge(List.of(node), byA::addAll, clock, 100, new SimpleMeterRegistry());
        // and A leads first and relays
        relay(a, 3, byA);
        // When B takes over 7 s later and relays
        clock.advance(Duration.ofSeconds(7));
        relay(b, 1, byB);
        // Then B's events number above A's, so readers apply them rather than drop them as stale
        assertThat(byB.get(0).sequence()).isGreaterThan(byA.get(byA.size() - 1).sequence());
    }

    private static void relay(VllmKvBridge bridge, int messages, List<KvCacheEvent> published) throws Exception {
        bridge.start();
        try {
            for (int i = 0; i < messages; i++) {
                assertThat(bridge.handle(0, VllmFrames.frames("kv@vllm-a", i,
                        VllmStreamTranslatorTest.stored("GPU", PROBE)))).isTrue();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> published.size() == messages);
        } finally {
            bridge.stop();
        }
    }

    private static void send(ZMQ.Socket pub, String topic, long seq, byte[] payload) {
        List<byte[]> frames = VllmFrames.frames(topic, seq, payload);
        pub.send(frames.get(0), ZMQ.SNDMORE);
        pub.send(frames.get(1), ZMQ.SNDMORE);
        pub.send(frames.get(2), 0);
    }
}
