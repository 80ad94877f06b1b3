package dev.zerolayer.simulator.node;

import dev.zerolayer.routing.prefix.BlockHasher;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.simulator.faults.ActiveFault;
import dev.zerolayer.simulator.faults.FaultBoard;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.kv.KvBlockCache;
import dev.zerolayer.simulator.kv.KvEventSink;
import dev.zerolayer.simulator.latency.LatencyModel;
import dev.zerolayer.simulator.latency.TtftHistogram;
import io.netty.channel.Channel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;
import reactor.util.retry.Retry;

/**
 * One simulated serving node: its own HTTP server speaking both client APIs, a concurrency limit with a waiting queue,
 * a prefix KV cache, a latency model, a warm-up gate and the faults injected into it. It keeps the counters its
 * telemetry and {@code /metrics} are derived from; a crash disposes its server and cache, and the end of the crash
 * rebinds the same port with a cold node.
 */
public final class SimulatedNode {

    private static final Logger log = LoggerFactory.getLogger(SimulatedNode.class);
    /** XID reported while PCIe errors are injected ("GPU has fallen off the bus", a PCIe link failure). */
    static final int PCIE_XID = 79;

    private final NodeSpec spec;
    private final NodeSettings settings;
    private final LatencyModel latency;
    private final KvBlockCache kv;
    private final FaultBoard faults;
    private final Admission admission;
    private final WarmGate warmGate;
    private final BlockHasher hasher;
    private final ServedModel servedModel;
    private final Clock clock;
    private final Scheduler timers;
    private final LoopResources loops;
    private final NodeHttpHandler handler;
    /** Open client connections (channels, not requests: the server reports every request on a kept-alive one). */
    private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    private final Map<FaultType, Disposable> faultTimers = new EnumMap<>(FaultType.class);
    private final AtomicBoolean cold = new AtomicBoolean(true);
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    private final LongAdder promptTokens = new LongAdder();
    private final LongAdder generationTokens = new LongAdder();
    private final LongAdder finishedStop = new LongAdder();
    private final LongAdder finishedLength = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final SlidingRate processed = new SlidingRate();
    private final SlidingRate generated = new SlidingRate();
    private final SlidingRate evictions = new SlidingRate();
    private final TtftHistogram ttft = new TtftHistogram();
    private final HardwareErrors hardwareErrors;

    private volatile DisposableServer server;
    private volatile Mono<Void> lastServerClosed = Mono.empty();
    private volatile int boundPort;
    private volatile boolean crashed;
    private volatile boolean stopped;

    public SimulatedNode(NodeSpec spec, NodeSettings settings, PromptTokenizer tokenizer, KvEventSink kvEvents,
            MetricsPage metricsPage, LoopResources loops, Scheduler timers, Clock clock) {
        this(spec, settings, tokenizer, null, kvEvents, metricsPage, loops, timers, clock);
    }

    /** A node; with a served model (and the spec's prefix caching) it tokenizes and hashes prompts as vLLM does. */
    public SimulatedNode(NodeSpec spec, NodeSettings settings, PromptTokenizer tokenizer, ServedModel servedModel,
            KvEventSink kvEvents, MetricsPage metricsPage, LoopResources loops, Scheduler timers, Clock clock) {
        this.spec = spec;
        this.settings = settings;
        this.latency = new LatencyModel(spec.profile(), spec.latency());
        this.clock = clock;
        this.timers = timers;
        this.loops = loops;
        this.kv = new KvBlockCache(spec.id(), spec.profile().kvBlocks(), settings.blockSize(), kvEvents, clock);
        this.faults = new FaultBoard(clock);
        this.admission = new Admission(spec.profile().capacity(), settings.maxWaiting(), this::syntheticRunning);
        this.warmGate = new WarmGate(timers);
        if ((servedModel == null) != (spec.prefixCache() == null)) {
            throw new IllegalArgumentException("node " + spec.id() + ": a served model goes with the spec's prefix caching");
        }
        this.servedModel = servedModel;
        this.hasher = spec.prefixCache() == null ? new FastBlockHasher(settings.blockSize(), settings.hashSeed())
                : new VllmBlockHasher(spec.prefixCache().blockSize(), spec.prefixCache().hashSeed(), null);
        this.hardwareErrors = new HardwareErrors(new SplittableRandom(spec.seed() ^ 0x5DEECE66DL));
        this.boundPort = spec.port();
        this.handler = new NodeHttpHandler(this, tokenizer, new RequestParser(settings.defaultMaxTokens()),
                metricsPage);
    }

    // ---------------------------------------------------------------- lifecycle

    /** Binds the node's server (blocking until bound). */
    public synchronized void start() {
        stopped = false;
        DisposableServer bound = httpServer().bindNow(Duration.ofSeconds(10));
        server = bound;
        lastServerClosed = bound.onDispose();
        boundPort = bound.port();
        log.info("node {} ({} {}, {}) listening on {}", spec.id(), spec.cluster(), spec.profile().name(),
                spec.protocol().wireName(), baseUrl());
    }

    /** Disposes the server, cancels fault timers and ends any warm-up. */
    public synchronized void stop() {
        stopped = true;
        faultTimers.values().forEach(Disposable::dispose);
        faultTimers.clear();
        warmGate.end();
        DisposableServer current = server;
        server = null;
        if (current != null) {
            current.disposeNow(Duration.ofSeconds(2));
        }
        connections.forEach(Channel::close);
    }

    private HttpServer httpServer() {
        return HttpServer.create()
                .host(spec.bindHost())
                .port(boundPort)
                .runOn(loops)
                .doOnConnection(connection -> {
                    Channel channel = connection.channel();
                    if (connections.add(channel)) {
                        channel.closeFuture().addListener(closed -> connections.remove(channel));
                    }
                })
                .handle(handler::handle);
    }

    // ---------------------------------------------------------------- identity and state

    /** Client connections open now (a closed one is forgotten at once: the node holds nothing per request served). */
    public int openConnections() {
        return connections.size();
    }

    public NodeSpec spec() {
        return spec;
    }

    public String id() {
        return spec.id();
    }

    public int port() {
        return boundPort;
    }

    public String baseUrl() {
        return "http://" + spec.advertisedHost() + ":" + boundPort;
    }

    public NodeStatus status() {
        if (crashed) {
            return NodeStatus.CRASHED;
        }
        return warmGate.warming() ? NodeStatus.WARMING : NodeStatus.SERVING;
    }

    /** Times the node came back from a crash (telemetry re-registers on change). */
    public long restarts() {
        return restarts.get();
    }

    public LatencyModel latency() {
        return latency;
    }

    public KvBlockCache kvCache() {
        return kv;
    }

    public FaultBoard faults() {
        return faults;
    }

    public NodeSnapshot snapshot() {
        long now = System.nanoTime();
        double spike = faults.intensity(FaultType.LOAD_SPIKE);
        int capacity = spec.profile().capacity();
        HardwareErrors.Counts errors = hardwareErrors.advance(now, faults.intensity(FaultType.PCIE_ERRORS),
                faults.isActive(FaultType.PCIE_ERRORS));
        return new NodeSnapshot(clock.instant(), status(), admission.running(), waiting.get(), syntheticRunning(),
                faults.isActive(FaultType.LOAD_SPIKE) ? (int) Math.round(2 * capacity * spike) : 0, capacity,
                kv.size(), kv.capacity(), kv.usage(), processed.perSecond(now), generated.perSecond(now),
                evictions.perSecond(now), errors.xid(), errors.lastXid(), errors.pcieReplays(), promptTokens.sum(),
                generationTokens.sum(), kv.queriedTokens(), kv.hitTokens(), finishedStop.sum(),
                finishedLength.sum(), failed.sum(), ttft.snapshot(), faults.list());
    }

    int syntheticRunning() {
        if (!faults.isActive(FaultType.LOAD_SPIKE)) {
            return 0;
        }
        return (int) Math.round(spec.profile().capacity() * faults.intensity(FaultType.LOAD_SPIKE));
    }

    // ---------------------------------------------------------------- faults

    /**
     * Injects a fault for {@code duration} (replacing one of the same type) and applies its immediate effect; a crash
     * returns once the port refuses connections (this blocks briefly: call it off event loops).
     */
    public ActiveFault inject(FaultType type, Duration duration, double intensity) {
        Instant now = clock.instant();
        ActiveFault fault = new ActiveFault(type, intensity, now, now.plus(duration));
        synchronized (this) {
            faults.put(fault);
            Disposable previous = faultTimers.put(type,
                    timers.schedule(() -> end(fault), duration.toNanos(), TimeUnit.NANOSECONDS));
            if (previous != null) {
                previous.dispose();
            }
        }
        switch (type) {
            case CRASH -> crash();
            case CUDA_GRAPH_WARMUP -> warmGate.warmFor(duration.toNanos());
            default -> {
                // the other faults act on each request or sample while active
            }
        }
        log.info("node {}: fault {} (intensity {}) for {} ms", spec.id(), type.wireName(), intensity,
                duration.toMillis());
        return fault;
    }

    /** Ends every fault now (a crashed node restarts, a warming one serves); returns those that were active. */
    public List<ActiveFault> clearFaults() {
        List<ActiveFault> cleared;
        synchronized (this) {
            faultTimers.values().forEach(Disposable::dispose);
            faultTimers.clear();
            cleared = faults.clear();
        }
        cleared.forEach(fault -> afterEnd(fault.type()));
        if (crashed && cleared.stream().noneMatch(f -> f.type() == FaultType.CRASH)) {
            restart();
        }
        return cleared;
    }

    private void end(ActiveFault fault) {
        boolean ended;
        synchronized (this) {
            ended = faults.remove(fault);
            if (ended) {
                faultTimers.remove(fault.type());
            }
        }
        if (ended) {
            afterEnd(fault.type());
        }
    }

    private void afterEnd(FaultType type) {
        switch (type) {
            case CRASH -> restart();
            case CUDA_GRAPH_WARMUP -> warmGate.end();
            case LOAD_SPIKE -> admission.rebalance();
            default -> {
                // nothing lingers
            }
        }
    }

    private void crash() {
        DisposableServer current;
        synchronized (this) {
            if (crashed || stopped) {
                return;
            }
            crashed = true;
            current = server;
            server = null;
        }
        if (current != null) {
            // wait until the listening socket is closed: from now on connections are refused
            current.disposeNow(Duration.ofSeconds(2));
        }
        connections.forEach(Channel::close);
        warmGate.end();
        kv.clear();
        log.warn("node {} crashed: port {} refuses connections, KV cache lost", spec.id(), boundPort);
    }

    private void restart() {
        Mono<Void> closed;
        synchronized (this) {
            if (!crashed || stopped) {
                return;
            }
            closed = lastServerClosed;
        }
        closed.then(Mono.defer(() -> httpServer().bind()))
                .retryWhen(Retry.backoff(30, Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(500)))
                .subscribe(bound -> {
                    boolean keep;
                    synchronized (this) {
                        keep = !stopped;
                        if (keep) {
                            server = bound;
                            lastServerClosed = bound.onDispose();
                            cold.set(true);
                            crashed = false;
                            restarts.incrementAndGet();
                        }
                    }
                    if (!keep) {
                        bound.disposeNow();
                        return;
                    }
                    kv.clear();
                    log.info("node {} restarted on port {} (cold)", spec.id(), boundPort);
                }, error -> log.error("node {} could not rebind port {}: {}", spec.id(), boundPort,
                        error.toString()));
    }

    // ---------------------------------------------------------------- prewarm

    /** Marks the commanded block hashes cached (emitting BLOCK_STORED for the new ones); says how many were new. */
    public int prewarm(List<Long> blockHashes) {
        if (crashed || blockHashes.isEmpty()) {
            return 0;
        }
        KvBlockCache.Stored stored = kv.prewarm(blockHashes);
        evictions.add(stored.evicted(), System.nanoTime());
        return stored.added();
    }

    // ---------------------------------------------------------------- used by the request handler

    NodeSettings settings() {
        return settings;
    }

    BlockHasher hasher() {
        return hasher;
    }

    /** The model whose tokenizer and chat template this node plays vLLM with (null: the simulator's own counting). */
    ServedModel servedModel() {
        return servedModel;
    }

    Clock clock() {
        return clock;
    }

    Scheduler timers() {
        return timers;
    }

    Admission admission() {
        return admission;
    }

    WarmGate warmGate() {
        return warmGate;
    }

    long nextRequestNumber() {
        return requests.incrementAndGet();
    }

    /** A cold node with its latency model on starts its warm-up with the first request. */
    void warmIfCold() {
        if (latency.enabled() && cold.compareAndSet(true, false)) {
            warmGate.warmFor(latency.warmupNanos());
        } else if (!latency.enabled()) {
            cold.set(false);
        }
    }

    AtomicInteger waitingCounter() {
        return waiting;
    }

    /** Requests running now, real and synthetic: the batch each token is computed in. */
    int batch() {
        return admission.running() + syntheticRunning();
    }

    KvBlockCache.Stored storePrompt(long[] chain) {
        KvBlockCache.Stored stored = kv.store(chain);
        evictions.add(stored.evicted(), System.nanoTime());
        return stored;
    }

    void prefilled(int tokens) {
        promptTokens.add(tokens);
        processed.add(tokens, System.nanoTime());
    }

    void generatedTokens(int tokens) {
        long now = System.nanoTime();
        generationTokens.add(tokens);
        processed.add(tokens, now);
        generated.add(tokens, now);
    }

    void finished(boolean capped) {
        (capped ? finishedLength : finishedStop).increment();
    }

    void failedRequest() {
        failed.increment();
    }

    void recordTtft(long nanos) {
        ttft.record(nanos / 1e9);
    }

    /** Hardware error counters that climb while PCIe errors are injected (XID and PCIe replays), seeded. */
    static final class HardwareErrors {

        record Counts(long xid, int lastXid, long pcieReplays) {
        }

        private final SplittableRandom random;
        private long lastNanos = -1;
        private double xidBudget;
        private long xid;
        private int lastXid;
        private long replays;

        HardwareErrors(SplittableRandom random) {
            this.random = random;
        }

        synchronized Counts advance(long nowNanos, double intensity, boolean active) {
            if (lastNanos >= 0 && active) {
                double seconds = (nowNanos - lastNanos) / 1e9;
                // about 4 XID errors and 400 PCIe replays per second at full intensity, at least one XID per window
                xidBudget += seconds * 4 * Math.max(0.05, intensity);
                while (xidBudget >= 1 || xid == 0) {
                    xid++;
                    xidBudget = Math.max(0, xidBudget - 1);
                    lastXid = PCIE_XID;
                }
                replays += Math.round(seconds * 400 * Math.max(0.05, intensity) * (0.5 + random.nextDouble()));
            }
            lastNanos = nowNanos;
            return new Counts(xid, lastXid, replays);
        }
    }
}
