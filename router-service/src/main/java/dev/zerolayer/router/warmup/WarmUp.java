package dev.zerolayer.router.warmup;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.api.GatewayHandler;
import dev.zerolayer.router.config.RouterProperties;
import io.netty.buffer.Unpooled;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufMono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Until the warm-up is done the router is not ready: synthetic requests of every client API go through the router's
 * own port and HTTP stack, a gateway of their own (the router's fleet, once loaded, served by one loopback
 * {@link StandInNode}; decisions discarded, breakers and meters apart) and the real upstream client, so the JIT compiles
 * the request path as real traffic takes it before a client's request meets it; the warm-up paths answer 404 before and
 * after.
 */
public class WarmUp implements SmartLifecycle, HealthIndicator {

    /** The warm-up's paths are the client API's under this prefix. */
    public static final String PREFIX = "/_warm-up";

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final int TIDY_EVERY = 1_000;

    private final RouterProperties.WarmUp settings;
    private final GatewayHandler gateway;
    private final CompactedView<NodeHealth> standInFleet;
    private final CompactedView<NodeHealth> fleet;
    private final Supplier<PolicyDocument> policy;
    private final BooleanSupplier viewsLoaded;
    private final String apiKey;
    private final IntSupplier serverPort;
    private final List<Lifecycle> parts;
    private final Runnable tidy;
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private volatile boolean open;
    private volatile boolean done;
    private volatile boolean running;
    private volatile long tookMs = -1;
    private volatile String endedBy;
    private volatile long jitCompileMs = -1;
    private Thread worker;
    private volatile String standInBase;
    private volatile int nodes;

    /**
     * @param gateway      the warm-up's own gateway, deciding over {@code standInFleet} and accepting {@code apiKey}
     * @param standInFleet the warm-up gateway's node-health view: the router's {@code fleet} mirrored onto the stand-in
     *                     node (refreshed as the warm-up goes), once the router's views are loaded
     * @param policy       the policy in force (its stand-in fleet while the router knows no node)
     * @param parts        the warm-up gateway's own running parts (its decision publisher), started and stopped with it
     * @param tidy         run every {@link #TIDY_EVERY} requests (forgets what the parts kept)
     * @param serverPort   the router's HTTP port once it listens (a value below 1: no web server, no warm-up)
     */
    public WarmUp(RouterProperties.WarmUp settings, GatewayHandler gateway, CompactedView<NodeHealth> standInFleet,
            CompactedView<NodeHealth> fleet, Supplier<PolicyDocument> policy, BooleanSupplier viewsLoaded,
            String apiKey, List<? extends Lifecycle> parts, Runnable tidy, IntSupplier serverPort) {
        this.settings = settings;
        this.gateway = gateway;
        this.standInFleet = standInFleet;
        this.fleet = fleet;
        this.policy = policy;
        this.viewsLoaded = viewsLoaded;
        this.apiKey = apiKey;
        this.serverPort = serverPort;
        this.parts = List.copyOf(parts);
        this.tidy = tidy;
    }

    /** True once the warm-up has ended (or was not asked for): readiness waits for it. */
    public boolean done() {
        return done;
    }

    /** The warm-up's gateway, serving the client APIs under {@link #PREFIX} while the warm-up runs; null otherwise. */
    public GatewayHandler openGateway() {
        return open ? gateway : null;
    }

    @Override
    public void start() {
        running = true;
        if (!settings.enabled() || settings.requests() == 0) {
            endedBy = "disabled";
            done = true;
            return;
        }
        worker = new Thread(this::warmUp, "router-warm-up");
        worker.setDaemon(true);
        worker.start();
    }

    private void warmUp() {
        long started = System.nanoTime();
        try {
            int port = serverPort.getAsInt();
            if (port < 1) {
                endedBy = "no web server";
                return;
            }
            long deadline = System.nanoTime() + settings.maxDuration().toNanos();
            while (!viewsLoaded.getAsBoolean() && running && System.nanoTime() < deadline) {
                Thread.sleep(50); // the real fleet and policy are what the warm-up decides over
            }
            parts.forEach(Lifecycle::start);
            try (StandInNode node = StandInNode.start()) {
                standInBase = node.baseUrl();
                mirrorFleet();
                open = true;
                endedBy = drive(port, deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endedBy = "stopped";
        } catch (RuntimeException e) {
            endedBy = "failed: " + e.getClass().getSimpleName();
            log.warn("warm-up stopped early: {}", e.toString());
        } finally {
            open = false;
            parts.forEach(Lifecycle::stop);
            tidy.run();
            tookMs = (System.nanoTime() - started) / 1_000_000;
            done = true;
            log.info("warm-up done in {} ms ({}): {} requests answered 2xx, {} not{}; the JIT compiled for {} ms "
                    + "meanwhile; ready once the views are loaded", tookMs, endedBy, ok.get(), failed.get(),
                    firstFailure.get() == null ? "" : " (first: " + firstFailure.get() + ")", jitCompileMs);
        }
    }

    /** Sends the requests, {@code concurrency} at a time, until all are answered or the deadline passes. */
    private String drive(int port, long deadline) {
        List<WarmUpTraffic.Call> calls = WarmUpTraffic.calls(policy.get(), apiKey);
        ConnectionProvider pool = ConnectionProvider.builder("router-warm-up")
                .maxConnections(settings.concurrency()).pendingAcquireMaxCount(-1).build();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long compiledBefore = timed ? jit.getTotalCompilationTime() : 0;
        try {
            HttpClient client = HttpClient.create(pool).baseUrl("http://127.0.0.1:" + port);
            Flux.range(0, settings.requests())
                    .takeWhile(i -> running && System.nanoTime() < deadline)
                    .doOnNext(i -> {
                        if (i % TIDY_EVERY == TIDY_EVERY - 1) {
                            tidy.run();
                            mirrorFleet();
                        }
                    })
                    .flatMap(i -> send(client, calls.get(i % calls.size())), settings.concurrency())
                    .blockLast(settings.maxDuration().plus(REQUEST_TIMEOUT));
        } catch (RuntimeException e) {
            if (!running) {
                return "stopped";
            }
            if (System.nanoTime() >= deadline) {
                return "time limit";
            }
            throw e;
        } finally {
            jitCompileMs = timed ? jit.getTotalCompilationTime() - compiledBefore : -1;
            pool.disposeLater().block(Duration.ofSeconds(5));
        }
        if (!running) {
            return "stopped";
        }
        return ok.get() + failed.get() >= settings.requests() ? "all requests" : "time limit";
    }

    /** The router's fleet now, served by the stand-in node, into the warm-up gateway's view (records kept fresh). */
    private void mirrorFleet() {
        List<NodeHealth> mirrored = WarmUpTraffic.mirror(fleet.values(), policy.get(), standInBase);
        nodes = mirrored.size();
        for (NodeHealth health : mirrored) {
            standInFleet.accept(MessageBuilder.withPayload(EventCodec.encode(health))
                    .setHeader(KafkaHeaders.RECEIVED_KEY, health.key().getBytes(StandardCharsets.UTF_8)).build());
        }
    }

    private Mono<Integer> send(HttpClient client, WarmUpTraffic.Call call) {
        return client.headers(headers -> call.headers().forEach(headers::set))
                .post().uri(PREFIX + call.path())
                .send(ByteBufMono.just(Unpooled.wrappedBuffer(call.body())))
                .responseSingle((response, body) -> body.asByteArray().defaultIfEmpty(new byte[0])
                        .map(bytes -> response.status().code()))
                .timeout(REQUEST_TIMEOUT)
                .doOnNext(status -> count(call, status, null))
                .onErrorResume(e -> {
                    count(call, 0, e);
                    return Mono.empty();
                });
    }

    private void count(WarmUpTraffic.Call call, int status, Throwable error) {
        if (status / 100 == 2) {
            ok.incrementAndGet();
            return;
        }
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, call.path() + " " + (error == null ? "HTTP " + status : error.toString()));
    }

    @Override
    public Health health() {
        Health.Builder health = done ? Health.up() : Health.outOfService();
        health.withDetail("done", done).withDetail("nodes", nodes).withDetail("answered", ok.get())
                .withDetail("failed", failed.get());
        if (endedBy != null) {
            health.withDetail("endedBy", endedBy);
        }
        if (tookMs >= 0) {
            health.withDetail("tookMs", tookMs);
        }
        if (jitCompileMs >= 0) {
            health.withDetail("jitCompileMs", jitCompileMs);
        }
        if (firstFailure.get() != null) {
            health.withDetail("firstFailure", firstFailure.get());
        }
        return health.build();
    }

    @Override
    public void stop() {
        running = false;
        open = false;
        if (worker != null) {
            worker.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the web server has started (it starts in an earlier phase). */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
