package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.routing.health.HealthRules;
import dev.zerolayer.routing.health.LoadSpikeDetector;
import dev.zerolayer.routing.health.NodeHealthMachine;
import dev.zerolayer.routing.health.WarmupHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * telemetry-service on simulated time, driving routing-core's own {@link NodeHealthMachine} and
 * {@link LoadSpikeDetector}: every node that is up sends a sample every 100 ms (SM, NVLink, fragmentation, running and
 * waiting as node-simulator's HardwareModel derives them); a 100 ms tick checks staleness and sends due warm-up probes;
 * a node's record is published on a change of state, spike flag or predicted ready time, or every 2 s, and reaches
 * the router after a propagation delay drawn lognormal with the measured median 32 ms and p99 212 ms
 * (docs/benchmarks.md), capped at 250 ms.
 */
public final class HealthPipeline {

    static final double SAMPLE_INTERVAL = 0.100;
    static final double TICK_INTERVAL = 0.100;
    static final double HEARTBEAT = 2.0;
    static final double PROBE_TIMEOUT = 2.0;
    static final double PROPAGATION_MEDIAN = 0.0324;
    static final double PROPAGATION_SIGMA = Math.log(211.8 / 32.4) / 2.326;
    static final double PROPAGATION_CAP = 0.250;
    static final Instant EPOCH = Instant.parse("2023-11-16T18:15:46Z");

    private final EventLoop loop;
    private final List<SimNode> nodes;
    private final RouterView view;
    private final Thresholds thresholds;
    private final NodeHealthMachine[] machines;
    private final NodeState[] lastState;
    private final boolean[] lastSpike;
    private final Instant[] lastPredicted;
    private final double[] lastPublishedAt;
    private final boolean[] probeInFlight;
    private final long[] lastEvictions;
    private final Map<String, LoadSpikeDetector> detectors = new HashMap<>();
    private final Map<String, Boolean> spiking = new HashMap<>();
    private final SplittableRandom random;
    private boolean stopped;
    private long published;

    public HealthPipeline(EventLoop loop, List<SimNode> nodes, RouterView view, Thresholds thresholds, long seed) {
        this.loop = loop;
        this.nodes = nodes;
        this.view = view;
        this.thresholds = thresholds;
        int n = nodes.size();
        machines = new NodeHealthMachine[n];
        lastState = new NodeState[n];
        lastSpike = new boolean[n];
        lastPredicted = new Instant[n];
        lastPublishedAt = new double[n];
        probeInFlight = new boolean[n];
        lastEvictions = new long[n];
        HealthRules rules = HealthRules.from(thresholds);
        for (int i = 0; i < n; i++) {
            machines[i] = new NodeHealthMachine(nodes.get(i).profile().capacity(), rules, new WarmupHistory());
            lastPublishedAt[i] = Double.NEGATIVE_INFINITY;
        }
        random = new SplittableRandom(Workload.mix(seed, 0x7E1EL, 0, 0));
    }

    /** Starts samples (nodes phased over the interval) and the tick. */
    public void start() {
        double t0 = loop.now();
        for (int i = 0; i < nodes.size(); i++) {
            int node = i;
            loop.at(t0 + SAMPLE_INTERVAL * i / nodes.size(), () -> sample(node));
        }
        loop.at(t0 + TICK_INTERVAL / 2, this::tick);
    }

    public void stop() {
        stopped = true;
    }

    public NodeState state(int node) {
        return machines[node].state();
    }

    public long published() {
        return published;
    }

    static Instant instant(double seconds) {
        return EPOCH.plusNanos(Math.round(seconds * 1e9));
    }

    private void sample(int i) {
        if (stopped) {
            return;
        }
        SimNode node = nodes.get(i);
        double now = loop.now();
        if (node.status() != SimNode.Status.CRASHED) {
            machines[i].onSample(sampleOf(i, node, now));
            String cluster = node.member().cluster();
            boolean spike = detectors.computeIfAbsent(cluster, c -> new LoadSpikeDetector(thresholds.loadSpikeRise(),
                    Duration.ofMillis(thresholds.loadSpikeWindowMs()))).observe(instant(now), clusterLoad(cluster));
            Boolean before = spiking.put(cluster, spike);
            if (before != null && before != spike) {
                for (int j = 0; j < nodes.size(); j++) {
                    if (nodes.get(j).member().cluster().equals(cluster)) {
                        publishIfDue(j, true);
                    }
                }
            } else {
                publishIfDue(i, false);
            }
        }
        loop.after(SAMPLE_INTERVAL, () -> sample(i));
    }

    /** node-simulator's HardwareModel (SM from the busy share, warm-up and saturation; NVLink; fragmentation). */
    private TelemetrySample sampleOf(int i, SimNode node, double now) {
        NodeProfile profile = node.profile();
        double sm = 0.03 + 0.85 * node.busyShare();
        boolean warming = node.status() == SimNode.Status.WARMING;
        if (warming) {
            sm = Math.max(sm, 0.45);
        }
        if (node.smSaturated()) {
            sm = Math.max(sm, 0.955 + 0.04);
        }
        double nvlinkCapacity = profile.nvlinkCapacityBytesPerSecond();
        double perDirection = node.tokensPerSecond() * profile.nvlinkBytesPerToken();
        double saturation = nvlinkCapacity > 0 ? clamp(2 * perDirection / nvlinkCapacity) : 0.0;
        if (nvlinkCapacity > 0 && node.bandwidthDegraded()) {
            saturation = Math.max(saturation, 0.85 + 0.1 * FaultScript.BANDWIDTH_INTENSITY);
            perDirection = saturation * nvlinkCapacity / 2;
        }
        if (nvlinkCapacity > 0) {
            perDirection = Math.min(perDirection, nvlinkCapacity / 2);
        }
        long evictions = node.evictions();
        double evictionsPerSecond = (evictions - lastEvictions[i]) / SAMPLE_INTERVAL;
        lastEvictions[i] = evictions;
        double churn = Math.min(1.0, evictionsPerSecond / Math.max(1.0, profile.kvBlocks() * 0.01));
        double fragmentation = clamp(0.02 + 0.1 * node.kvUsage() + 0.6 * churn);
        return new TelemetrySample("replay", instant(now), TelemetrySample.SCHEMA_VERSION, node.id(), clamp(sm),
                perDirection, perDirection, saturation, 0, 0, fragmentation, node.running(), node.waiting(),
                clamp(node.kvUsage()), warming, 0);
    }

    private double clusterLoad(String cluster) {
        long capacity = 0;
        long busy = 0;
        for (int j = 0; j < nodes.size(); j++) {
            if (nodes.get(j).member().cluster().equals(cluster) && machines[j].state().routable()) {
                capacity += nodes.get(j).profile().capacity();
                busy += machines[j].lastSample().map(s -> s.requestsRunning() + s.requestsWaiting()).orElse(0);
            }
        }
        return capacity == 0 ? 0.0 : (double) busy / capacity;
    }

    private void tick() {
        if (stopped) {
            return;
        }
        double now = loop.now();
        for (int i = 0; i < nodes.size(); i++) {
            machines[i].onTick(instant(now));
            publishIfDue(i, false);
            var due = machines[i].probeDueAt();
            if (due.isPresent() && !due.get().isAfter(instant(now)) && !probeInFlight[i]) {
                probe(i);
            }
        }
        loop.after(TICK_INTERVAL, this::tick);
    }

    /** The 1-token probe: answered when the node serves, refused when crashed, timed out while warming too long. */
    private void probe(int i) {
        probeInFlight[i] = true;
        SimNode node = nodes.get(i);
        double now = loop.now();
        double overhead = node.profile().prefillSeconds(1);
        boolean ok;
        double at;
        switch (node.status()) {
            case SERVING -> {
                ok = true;
                at = now + overhead;
            }
            case WARMING -> {
                ok = node.warmEnd() + overhead <= now + PROBE_TIMEOUT;
                at = ok ? node.warmEnd() + overhead : now + PROBE_TIMEOUT;
            }
            default -> {
                ok = false;
                at = now + SimNode.REFUSE_SECONDS;
            }
        }
        loop.at(at, () -> {
            probeInFlight[i] = false;
            machines[i].onProbe(ok, instant(loop.now()));
            publishIfDue(i, false);
        });
    }

    private void publishIfDue(int i, boolean force) {
        double now = loop.now();
        NodeHealthMachine machine = machines[i];
        NodeState state = machine.state();
        boolean spike = spiking.getOrDefault(nodes.get(i).member().cluster(), false);
        Instant predicted = machine.predictedReadyAt().orElse(null);
        boolean changed = state != lastState[i] || spike != lastSpike[i] || !Objects.equals(predicted, lastPredicted[i]);
        if (!force && !changed && now - lastPublishedAt[i] < HEARTBEAT) {
            return;
        }
        lastState[i] = state;
        lastSpike[i] = spike;
        lastPredicted[i] = predicted;
        lastPublishedAt[i] = now;
        int capacity = nodes.get(i).profile().capacity();
        double load = machine.lastSample().map(s -> (double) s.requestsRunning() / capacity).orElse(0.0);
        int queue = machine.lastSample().map(TelemetrySample::requestsWaiting).orElse(0);
        RouterView.Health record = new RouterView.Health(state, machine.score(), load, queue, spike, now);
        double delay = Math.min(PROPAGATION_CAP,
                PROPAGATION_MEDIAN * Math.exp(PROPAGATION_SIGMA * random.nextGaussian()));
        published++;
        loop.after(delay, () -> view.deliver(i, record));
    }

    private static double clamp(double value) {
        return Math.max(0.0, Math.min(1.0, value));
    }
}
