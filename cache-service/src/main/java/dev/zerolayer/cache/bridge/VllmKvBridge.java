package dev.zerolayer.cache.bridge;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Bridges real vLLM nodes' KV events into {@code cache.kv-events.v1}: one ZeroMQ SUB socket per configured endpoint
 * (connected, subscribed to its topic prefix), each message translated for its node and queued; the queue is handed to
 * the publisher in order from the same thread, in batches of up to {@value #MAX_BATCH} that go out whole or not at
 * all (a transaction of its partition's writer, so a relay whose partition moved on is fenced by the broker), and
 * keeps what the broker did not take (past {@code maxQueued} the oldest are dropped and counted, readers see the gap).
 * Malformed messages are counted in {@code zerolayer_cache_bridge_frames_total{outcome="malformed"}} and skipped. A
 * connection whose ZMTP handshake does not finish within {@code handshakeTimeout} is dropped and reconnected (see
 * {@link #DEFAULT_HANDSHAKE_TIMEOUT}). Started by the owner of its nodes' events partition ({@link VllmRelays}; one
 * relay per node, as its sequence is the relay's).
 */
public class VllmKvBridge {

    private static final Logger log = LoggerFactory.getLogger(VllmKvBridge.class);

    /**
     * JeroMQ 0.6.0's I/O poller can lose the registration of a freshly connected socket: when the connecter's handle is
     * removed and the stream engine's handle for the same channel is added in one loop iteration (the attach command
     * was already in the mailbox that select returned), the next re-registration pass finds the old, cancelled key,
     * skips the new handle and clears its "changed" flag, so the engine never reads nor writes and the handshake
     * stalls (observed: about 1 connection in 15 on a loaded 2-core machine, SUB side with the PUB's 10-byte greeting
     * unread). JeroMQ's own remedy is its handshake timer (30 s by default), which drops and reconnects the
     * connection; a short timeout makes the stall cost this long instead.
     */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);

    /** The most events handed to the publisher at once. */
    public static final int MAX_BATCH = 1_000;

    /** One vLLM KV-event publisher: which node it is, its ZeroMQ address and the topic prefix to subscribe to. */
    public record Endpoint(String nodeId, String address, String topic) {
    }

    private final List<Endpoint> endpoints;
    private final Predicate<List<KvCacheEvent>> publisher;
    private final Clock clock;
    private final int maxQueued;
    private final Duration handshakeTimeout;
    private final Deque<KvCacheEvent> queue = new ArrayDeque<>();
    private final Counter accepted;
    private final Counter malformed;
    private final Counter dropped;
    private final List<VllmStreamTranslator> translators = new ArrayList<>();
    private final Map<String, AtomicLong> sequences = new HashMap<>();
    private volatile boolean running;
    private Thread worker;

    /** @param publisher sends events in order, all or none; false when it could not (they are tried again) */
    public VllmKvBridge(List<Endpoint> endpoints, Predicate<List<KvCacheEvent>> publisher, Clock clock, int maxQueued,
            MeterRegistry meters) {
        this(endpoints, publisher, clock, maxQueued, DEFAULT_HANDSHAKE_TIMEOUT, meters);
    }

    /**
     * @param publisher        sends events in order, all or none; false when it could not (they are tried again)
     * @param handshakeTimeout a connection whose ZMTP handshake takes longer is dropped and reconnected
     */
    public VllmKvBridge(List<Endpoint> endpoints, Predicate<List<KvCacheEvent>> publisher, Clock clock, int maxQueued,
            Duration handshakeTimeout, MeterRegistry meters) {
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout must be positive, was " + handshakeTimeout);
        }
        this.handshakeTimeout = handshakeTimeout;
        this.endpoints = List.copyOf(endpoints);
        this.publisher = publisher;
        this.clock = clock;
        this.maxQueued = maxQueued;
        this.accepted = frames(meters, "accepted");
        this.malformed = frames(meters, "malformed");
        this.dropped = Counter.builder("zerolayer.cache.bridge.events.dropped")
                .description("Bridged KV events dropped because the queue was full").register(meters);
        long start = clock.millis() * 1000;
        for (Endpoint endpoint : this.endpoints) {
            translators.add(new VllmStreamTranslator(endpoint.nodeId(),
                    sequences.computeIfAbsent(endpoint.nodeId(), n -> new AtomicLong(start)), clock));
        }
    }

    private static Counter frames(MeterRegistry meters, String outcome) {
        return Counter.builder("zerolayer.cache.bridge.frames").tag("outcome", outcome)
                .description("ZeroMQ messages read from vLLM nodes, by outcome").register(meters);
    }

    /** Translates one message of endpoint {@code at} and queues its events; false when it was malformed. */
    boolean handle(int at, List<byte[]> frames) {
        try {
            List<KvCacheEvent> events = translators.get(at).translate(frames);
            accepted.increment();
            synchronized (queue) {
                for (KvCacheEvent event : events) {
                    if (queue.size() >= maxQueued) {
                        queue.pollFirst();
                        dropped.increment();
                    }
                    queue.addLast(event);
                }
            }
            return true;
        } catch (MalformedFrameException e) {
            malformed.increment();
            log.warn("skipped a malformed KV-event message from {} ({}): {}", endpoints.get(at).nodeId(),
                    endpoints.get(at).address(), e.getMessage());
            return false;
        }
    }

    /** Sends what is queued, in order and in batches, until it is empty or a send fails; returns how many went. */
    int drain() {
        int sent = 0;
        while (true) {
            List<KvCacheEvent> batch;
            synchronized (queue) {
                batch = queue.stream().limit(MAX_BATCH).toList();
            }
            if (batch.isEmpty() || !publisher.test(batch)) {
                return sent;
            }
            synchronized (queue) {
                for (KvCacheEvent event : batch) {
                    if (queue.peekFirst() == event) { // unless the full queue dropped it meanwhile
                        queue.pollFirst();
                    }
                }
            }
            sent += batch.size();
        }
    }

    private void loop() {
        try (ZContext context = new ZContext()) {
            List<ZMQ.Socket> sockets = new ArrayList<>();
            ZMQ.Poller poller = context.createPoller(endpoints.size());
            for (Endpoint endpoint : endpoints) {
                ZMQ.Socket socket = context.createSocket(SocketType.SUB);
                socket.setReceiveTimeOut(0);
                socket.setHandshakeIvl((int) Math.min(Integer.MAX_VALUE, handshakeTimeout.toMillis()));
                socket.subscribe(endpoint.topic() == null ? new byte[0]
                        : endpoint.topic().getBytes(StandardCharsets.UTF_8));
                socket.connect(endpoint.address());
                poller.register(socket, ZMQ.Poller.POLLIN);
                sockets.add(socket);
                log.info("subscribed to vLLM KV events of {} at {} (topic prefix '{}')", endpoint.nodeId(),
                        endpoint.address(), endpoint.topic() == null ? "" : endpoint.topic());
            }
            while (running && !Thread.currentThread().isInterrupted()) {
                poller.poll(100);
                for (int i = 0; i < sockets.size(); i++) {
                    if (poller.pollin(i)) {
                        readAll(i, sockets.get(i));
                    }
                }
                drain();
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("vLLM KV-event bridge stopped: {}", e.toString());
            }
        }
    }

    private void readAll(int at, ZMQ.Socket socket) {
        while (true) {
            byte[] first = socket.recv(ZMQ.DONTWAIT);
            if (first == null) {
                return;
            }
            List<byte[]> frames = new ArrayList<>(3);
            frames.add(first);
            while (socket.hasReceiveMore()) {
                frames.add(socket.recv(0));
            }
            handle(at, frames);
        }
    }

    /** Connects and relays on a thread of its own. */
    public synchronized void start() {
        if (endpoints.isEmpty() || running) {
            return;
        }
        // a relay's sequence starts at its start time: above what a relay that ran before it (on another replica, in
        // an earlier term) can have reached, as long as it relayed under a million events a second per node
        long now = clock.millis() * 1000;
        sequences.values().forEach(sequence -> sequence.accumulateAndGet(now, Math::max));
        running = true;
        worker = new Thread(this::loop, "vllm-kv-bridge");
        worker.setDaemon(true);
        worker.start();
    }

    /** Stops relaying and sends what was read, where the publisher still takes it. */
    public synchronized void stop() {
        running = false;
        if (worker != null) {
            try {
                worker.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            worker = null;
        }
        drain();
    }

    /** Whether it relays. */
    public boolean isRunning() {
        return running;
    }

    /** Events queued and not yet sent. */
    public int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }
}
