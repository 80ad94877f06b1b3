package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.simulator.node.NodeSnapshot;
import dev.zerolayer.simulator.node.NodeSpec;
import dev.zerolayer.simulator.node.NodeStatus;
import dev.zerolayer.simulator.node.SimulatedNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Every node announces itself with a registration, again every registration interval and at once after a restart,
 * then publishes a sample every sample interval derived from its simulated load; a crashed node publishes nothing, and
 * no sample goes out before its node's registration did.
 */
public class TelemetryPublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TelemetryPublisher.class);

    private final Supplier<List<SimulatedNode>> nodes;
    private final TelemetrySink sink;
    private final Duration sampleInterval;
    private final Duration registrationInterval;
    private final Map<String, Registered> registered = new ConcurrentHashMap<>();
    private ScheduledExecutorService executor;

    /** When a node last registered successfully, and at which restart count. */
    private record Registered(long atNanos, long restarts) {
    }

    public TelemetryPublisher(Supplier<List<SimulatedNode>> nodes, TelemetrySink sink, Duration sampleInterval,
            Duration registrationInterval) {
        this.nodes = nodes;
        this.sink = sink;
        this.sampleInterval = sampleInterval;
        this.registrationInterval = registrationInterval;
    }

    /** The registration a node publishes now. */
    public static NodeRegistration registration(SimulatedNode node) {
        NodeSpec spec = node.spec();
        return NodeRegistration.of(spec.id(), spec.tier(), spec.cluster(), spec.standbyOf(), node.baseUrl(),
                spec.protocol(), spec.model(), spec.profile().capacity(), spec.profile().name())
                .withPrefixCache(spec.declaredPrefixCache());
    }

    /** The sample a node publishes for this snapshot. */
    public static TelemetrySample sample(SimulatedNode node, NodeSnapshot snapshot) {
        HardwareModel.HardwareState hardware = HardwareModel.of(node.spec().profile(), snapshot);
        return TelemetrySample.now(node.id(), hardware.smActive(), hardware.nvlinkTxBytesPerSecond(),
                hardware.nvlinkRxBytesPerSecond(), hardware.nvlinkSaturation(), hardware.framebufferUsedMiB(),
                hardware.framebufferFreeMiB(), hardware.fragmentation(), snapshot.totalRunning(),
                snapshot.totalWaiting(), snapshot.kvUsage(), snapshot.warmingUp(), snapshot.xidErrors());
    }

    /** One round: (re-)registrations that are due, then a sample of every registered, running node. */
    public void tick() {
        long now = System.nanoTime();
        for (SimulatedNode node : nodes.get()) {
            try {
                if (node.status() == NodeStatus.CRASHED) {
                    continue;
                }
                Registered last = registered.get(node.id());
                boolean due = last == null || last.restarts() != node.restarts()
                        || now - last.atNanos() >= registrationInterval.toNanos();
                if (due) {
                    if (sink.send(registration(node))) {
                        last = new Registered(now, node.restarts());
                        registered.put(node.id(), last);
                    } else if (last == null || last.restarts() != node.restarts()) {
                        continue;
                    }
                }
                sink.send(sample(node, node.snapshot()));
            } catch (RuntimeException e) {
                log.warn("telemetry of node {} failed: {}", node.id(), e.toString());
            }
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sim-telemetry");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleAtFixedRate(this::tick, 0, sampleInterval.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    @Override
    public int getPhase() {
        return 100;
    }
}
