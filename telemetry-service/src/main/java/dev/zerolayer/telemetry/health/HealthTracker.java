package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.routing.health.ClusterHealth;
import dev.zerolayer.routing.health.HealthRules;
import dev.zerolayer.routing.health.LoadSpikeDetector;
import dev.zerolayer.routing.health.NodeHealthMachine;
import dev.zerolayer.routing.health.PassiveDiagnosis;
import dev.zerolayer.routing.health.WarmupHistory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs the health machine of every node this replica owns and publishes its record on {@code telemetry.node-health.v1}
 * at once when its state, diagnosis, predicted ready time or cluster spike flag change, when its load moved by a
 * {@link LoadChange} step (at most once per its interval), and otherwise every heartbeat;
 * a released node is never published again; cluster load counts other replicas' nodes from their records; thresholds
 * come from the latest fallback policy.
 */
public class HealthTracker {

    /** The partition of samples that did not come through the sample stream (scrapes). */
    public static final int NO_PARTITION = -1;

    private final HealthPublisher publisher;
    private final Clock clock;
    private final Duration heartbeat;
    private final LoadChange loadChange;
    private final Duration backlogPause;
    private final Counter samples;
    private final Map<String, NodeEntry> nodes = new ConcurrentHashMap<>();
    private final Map<String, Set<NodeEntry>> byCluster = new ConcurrentHashMap<>();
    private final Map<String, LoadSpikeDetector> spikes = new ConcurrentHashMap<>();
    private final Map<String, Boolean> spiking = new ConcurrentHashMap<>();
    private final Map<String, ClusterLoad> clusterLoads = new ConcurrentHashMap<>();
    /** One stream clock per partition of the sample stream (and one for scraped samples). */
    private final Map<Integer, StreamClock> clocks = new ConcurrentHashMap<>();
    /** Other replicas' nodes, as their last records say: their share of their cluster's load. */
    private final Map<String, LoadShare> foreign = new ConcurrentHashMap<>();
    private final Supplier<Writer> writer;
    private volatile Thresholds thresholds = Thresholds.defaults();
    private volatile HealthRules rules = HealthRules.defaults();
    private volatile long policyVersion;

    public HealthTracker(HealthPublisher publisher, Clock clock, Duration heartbeat, MeterRegistry meters) {
        this(publisher, clock, heartbeat, LoadChange.OFF, meters, () -> null);
    }

    /**
     * @param loadChange how far a node's load must move to be published before its heartbeat, and how often
     * @param writer     the stamp of this replica's records (null: records go out unstamped)
     */
    public HealthTracker(HealthPublisher publisher, Clock clock, Duration heartbeat, LoadChange loadChange,
            MeterRegistry meters, Supplier<Writer> writer) {
        this(publisher, clock, heartbeat, loadChange, meters, writer, Duration.ZERO);
    }

    /**
     * @param backlogPause how long a partition's stream clock, behind a backlog, waits for its next record before it
     *                     moves on (see {@link StreamClock})
     */
    public HealthTracker(HealthPublisher publisher, Clock clock, Duration heartbeat, LoadChange loadChange,
            MeterRegistry meters, Supplier<Writer> writer, Duration backlogPause) {
        this.backlogPause = backlogPause;
        this.publisher = publisher;
        this.writer = writer;
        this.clock = clock;
        this.heartbeat = heartbeat;
        this.loadChange = loadChange;
        this.samples = Counter.builder("zerolayer.telemetry.samples").description("Samples applied to node health")
                .register(meters);
        for (NodeState state : NodeState.values()) {
            Gauge.builder("zerolayer.telemetry.nodes", nodes,
                    all -> all.values().stream().filter(n -> n.machine.state() == state).count())
                    .tag("state", state.name()).register(meters);
        }
    }

    /** Registers a node (again), new ones with no history (see {@link #restore}); returns true when it was new. */
    public boolean register(NodeRegistration registration) {
        NodeEntry created = new NodeEntry(registration, new NodeHealthMachine(registration.capacity(), rules,
                new WarmupHistory(List.of())));
        NodeEntry previous = nodes.putIfAbsent(registration.nodeId(), created);
        if (previous == null) {
            join(created);
            publishIfDue(created, true);
            return true;
        }
        String before = previous.registration.cluster();
        previous.registration = registration;
        if (!before.equals(registration.cluster())) {
            members(before).remove(previous);
            join(previous);
            refreshLoad(previous);
        }
        return false;
    }

    /**
     * Registers a node this service knew before its restart, seeded from the last record it published (state and its
     * windows' outcome, score, predicted ready time, warm-up history); nothing is published until the machine says
     * something different from that record, so a restart does not flash another state onto the topic. Returns false
     * when the node was registered already.
     */
    public boolean restore(NodeRegistration registration, NodeHealth last) {
        NodeHealthMachine machine = new NodeHealthMachine(registration.capacity(), rules,
                new WarmupHistory(last.warmupDurationsMs()));
        machine.restore(last.state(), last.score(), last.predictedReadyAt(), clock.instant());
        NodeEntry created = new NodeEntry(registration, machine);
        created.lastPublished = last;
        created.lastPublishedAt = clock.instant();
        if (nodes.putIfAbsent(registration.nodeId(), created) != null) {
            return false;
        }
        join(created);
        refreshLoad(created);
        return true;
    }

    /** Makes the node a member of its registration's cluster; its load now counts from its own samples here. */
    private void join(NodeEntry entry) {
        byCluster.computeIfAbsent(entry.registration.cluster(), c -> ConcurrentHashMap.newKeySet()).add(entry);
        shiftLoad(foreign.remove(entry.registration.nodeId()), null);
    }

    /**
     * Lets go of the nodes another replica now owns: each is published no more from the moment this returns (a
     * heartbeat racing it either went out before or not at all), and its state leaves this replica; returns their ids.
     */
    public List<String> release(Predicate<String> notOurs) {
        List<String> released = new ArrayList<>();
        for (NodeEntry entry : nodes.values()) {
            String nodeId = entry.registration.nodeId();
            if (!notOurs.test(nodeId)) {
                continue;
            }
            synchronized (entry) {
                entry.released = true;
                shiftLoad(entry.load, null);
                entry.load = null;
            }
            nodes.remove(nodeId, entry);
            members(entry.registration.cluster()).remove(entry);
            released.add(nodeId);
        }
        return released;
    }

    /**
     * Another replica's record of a node this one does not run: the node's share of its cluster's load (capacity and
     * busy slots while routable), so a cluster split between replicas is judged whole.
     */
    public void observeForeign(NodeHealth record) {
        if (nodes.containsKey(record.nodeId())) {
            return;
        }
        boolean routable = record.state().routable();
        int capacity = record.registration().capacity();
        LoadShare next = new LoadShare(record.registration().cluster(), routable ? capacity : 0,
                routable ? Math.round(record.load() * capacity) + record.queueDepth() : 0);
        foreign.compute(record.nodeId(), (id, was) -> {
            shiftLoad(was, next);
            return next;
        });
    }

    /** Whether this replica runs the node's machine now. */
    public boolean runs(String nodeId) {
        return nodes.containsKey(nodeId);
    }

    /** A node's share of its cluster's load: routable capacity and busy slots (nothing while not routable). */
    private record LoadShare(String cluster, long capacity, long busy) {
    }

    /** Moves a node's share of its cluster's load from what it was to what it is now (either may be none). */
    private void shiftLoad(LoadShare was, LoadShare now) {
        if (was != null) {
            clusterLoads.get(was.cluster()).add(-was.capacity(), -was.busy());
        }
        if (now != null) {
            clusterLoads.computeIfAbsent(now.cluster(), c -> new ClusterLoad()).add(now.capacity(), now.busy());
        }
    }

    public Optional<NodeRegistration> registration(String nodeId) {
        NodeEntry entry = nodes.get(nodeId);
        return entry == null ? Optional.empty() : Optional.of(entry.registration);
    }

    /** Applies a sample of a registered node that did not come through the stream (a scrape); false: unknown node. */
    public boolean onSample(TelemetrySample sample) {
        return onSample(sample, sample.occurredAt(), NO_PARTITION);
    }

    /**
     * Applies a sample of a registered node read from partition {@code partition} of the sample stream, written there
     * at {@code recordTime}; returns false when the node is unknown. The record time advances that partition's
     * stream clock, which the node's staleness is judged by.
     */
    public boolean onSample(TelemetrySample sample, Instant recordTime, int partition) {
        NodeEntry entry = nodes.get(sample.nodeId());
        if (entry == null) {
            return false;
        }
        clocks.computeIfAbsent(partition, p -> new StreamClock(backlogPause)).observe(recordTime, clock.instant());
        entry.partition = partition;
        entry.machine.onSample(sample);
        samples.increment();
        refreshLoad(entry);
        String cluster = entry.registration.cluster();
        boolean spike = spikes.computeIfAbsent(cluster, c -> new LoadSpikeDetector(thresholds.loadSpikeRise(),
                Duration.ofMillis(thresholds.loadSpikeWindowMs()))).observe(sample.occurredAt(), clusterLoad(cluster));
        Boolean before = spiking.put(cluster, spike);
        if (before != null && before != spike) {
            members(cluster).forEach(n -> publishIfDue(n, true));
        } else {
            publishIfDue(entry, false);
        }
        return true;
    }

    /**
     * Feeds the passive diagnosis with what the router saw of a served streaming request (only streams have chunk
     * intervals, and a non-streaming time to first byte is the whole response time).
     */
    public void onDecision(RoutingDecision decision) {
        if (decision.node() == null || decision.status() != DecisionStatus.OK || !decision.streaming()) {
            return;
        }
        NodeEntry entry = nodes.get(decision.node());
        if (entry != null) {
            entry.diagnosis.observe(decision.occurredAt(), decision.ttfbMillis(), decision.chunkIntervalVarianceMs2());
            publishIfDue(entry, false);
        }
    }

    public void onProbe(String nodeId, boolean ok) {
        NodeEntry entry = nodes.get(nodeId);
        if (entry != null) {
            entry.probeInFlight = false;
            entry.machine.onProbe(ok, clock.instant());
            refreshLoad(entry);
            publishIfDue(entry, false);
        }
    }

    /**
     * Staleness and heartbeats; returns the nodes whose warm-up probe is due now. Staleness is judged on the stream
     * clock of the partition the node's samples come from: while this service works through a backlog (the consumer
     * may be further behind on one partition than on another), a node is not taken for silent because the service is
     * behind.
     */
    public List<NodeRegistration> tick() {
        Instant now = clock.instant();
        List<NodeRegistration> probes = new ArrayList<>();
        for (NodeEntry entry : nodes.values()) {
            StreamClock stream = clocks.get(entry.partition);
            entry.machine.onTick(stream == null ? now : stream.now(now));
            refreshLoad(entry);
            publishIfDue(entry, false);
            Optional<Instant> due = entry.machine.probeDueAt();
            if (due.isPresent() && !due.get().isAfter(now) && !entry.probeInFlight) {
                entry.probeInFlight = true;
                probes.add(entry.registration);
            }
        }
        return probes;
    }

    public void applyPolicy(FallbackPolicy policy) {
        if (policy.version() <= policyVersion) {
            return;
        }
        policyVersion = policy.version();
        thresholds = policy.document().thresholds();
        rules = HealthRules.from(thresholds);
        nodes.values().forEach(entry -> entry.machine.rules(rules));
        spikes.values().forEach(detector -> detector.configure(thresholds.loadSpikeRise(),
                Duration.ofMillis(thresholds.loadSpikeWindowMs())));
    }

    public long policyVersion() {
        return policyVersion;
    }

    public List<NodeHealth> snapshot() {
        return nodes.values().stream().map(this::record).sorted(Comparator.comparing(NodeHealth::nodeId)).toList();
    }

    public Optional<NodeHealth> snapshot(String nodeId) {
        return Optional.ofNullable(nodes.get(nodeId)).map(this::record);
    }

    /** Capacity-weighted health of a cluster's nodes. */
    public double clusterHealth(String cluster) {
        return ClusterHealth.of(members(cluster).stream()
                .map(n -> new ClusterHealth.Member(n.registration.capacity(), n.machine.score())).toList());
    }

    private Set<NodeEntry> members(String cluster) {
        return byCluster.getOrDefault(cluster, Set.of());
    }

    /** Requests running and waiting on the cluster's routable nodes per unit of their capacity. */
    private double clusterLoad(String cluster) {
        ClusterLoad load = clusterLoads.get(cluster);
        return load == null ? 0.0 : load.ratio();
    }

    /**
     * Moves a node's share of its cluster's load (capacity and busy slots while routable, nothing otherwise) to what it
     * is now: O(1) per sample, instead of summing the cluster's nodes each time.
     */
    private void refreshLoad(NodeEntry entry) {
        synchronized (entry) {
            if (entry.released) {
                return;
            }
            boolean routable = entry.machine.state().routable();
            String cluster = entry.registration.cluster();
            long capacity = routable ? entry.registration.capacity() : 0;
            long busy = routable ? entry.machine.lastSample().map(s -> s.requestsRunning() + s.requestsWaiting())
                    .orElse(0) : 0;
            LoadShare now = new LoadShare(cluster, capacity, busy);
            shiftLoad(entry.load, now);
            entry.load = now;
        }
    }

    /** Running sums of a cluster's routable capacity and busy slots. */
    private static final class ClusterLoad {

        private long capacity;
        private long busy;

        synchronized void add(long capacityDelta, long busyDelta) {
            capacity += capacityDelta;
            busy += busyDelta;
        }

        synchronized double ratio() {
            return capacity <= 0 ? 0.0 : (double) busy / capacity;
        }
    }

    /**
     * A load change worth publishing before the heartbeat: the node's load (requests running over capacity) moved by at
     * least {@code step} from the last record, which went out at least {@code minInterval} ago; so other routers see
     * a burst one router sent within a sample and a hop rather than a heartbeat, and a node's records stay bounded.
     *
     * @param step        the move in load that counts (0 turns it off)
     * @param minInterval the least time between two records of one node sent for their load alone
     */
    public record LoadChange(double step, Duration minInterval) {

        /** Load moves wait for the heartbeat. */
        public static final LoadChange OFF = new LoadChange(0, Duration.ZERO);

        public LoadChange {
            if (!(step >= 0 && step <= 1)) {
                throw new IllegalArgumentException("load change step must be within [0,1], was " + step);
            }
            if (minInterval == null || minInterval.isNegative()) {
                throw new IllegalArgumentException("load change interval must not be negative");
            }
        }

        boolean due(double published, double now, Duration sincePublished) {
            return step > 0 && Math.abs(now - published) >= step && sincePublished.compareTo(minInterval) >= 0;
        }
    }

    /**
     * Publishes when forced, when what a router acts on changed (state, diagnosis, spike flag, predicted ready time,
     * registration), when the load moved by a {@link LoadChange} step, or when the heartbeat is due; the record is
     * built only then, so a sample costs O(1).
     */
    private void publishIfDue(NodeEntry entry, boolean force) {
        synchronized (entry) {
            if (entry.released) {
                return;
            }
            NodeHealth last = entry.lastPublished;
            Instant now = clock.instant();
            boolean heartbeatDue = entry.lastPublishedAt == null
                    || Duration.between(entry.lastPublishedAt, now).compareTo(heartbeat) >= 0;
            boolean changed = last == null || last.state() != entry.machine.state()
                    || !Objects.equals(last.diagnosis(), entry.diagnosis.diagnosis(now).orElse(null))
                    || last.clusterLoadSpike() != spiking.getOrDefault(entry.registration.cluster(), false)
                    || !Objects.equals(last.predictedReadyAt(), entry.machine.predictedReadyAt().orElse(null))
                    || !last.registration().equals(entry.registration);
            boolean loadMoved = last != null // lastPublished and lastPublishedAt are set together
                    && loadChange.due(last.load(), load(entry), Duration.between(entry.lastPublishedAt, now));
            if (force || changed || heartbeatDue || loadMoved) {
                NodeHealth next = record(entry);
                if (publisher.publish(next)) {
                    entry.lastPublished = next;
                    entry.lastPublishedAt = now;
                }
            }
        }
    }

    private NodeHealth record(NodeEntry entry) {
        Instant now = clock.instant();
        NodeHealthMachine machine = entry.machine;
        Optional<TelemetrySample> sample = machine.lastSample();
        double load = load(entry);
        long age = sample.map(s -> Math.max(0, Duration.between(s.occurredAt(), now).toMillis())).orElse(0L);
        return new NodeHealth(EventChecks.newEventId(), now, NodeHealth.SCHEMA_VERSION, entry.registration.nodeId(),
                entry.registration, machine.state(), machine.score(), machine.reasons(),
                entry.diagnosis.diagnosis(now).orElse(null), load,
                sample.map(TelemetrySample::requestsWaiting).orElse(0),
                sample.map(TelemetrySample::kvCacheUsage).orElse(0.0), machine.predictedReadyAt().orElse(null),
                machine.warmups().durationsMs(), age, spiking.getOrDefault(entry.registration.cluster(), false),
                policyVersion, writer.get());
    }

    /** A node's load as its record states it: requests running over its capacity (0 before its first sample). */
    private static double load(NodeEntry entry) {
        int capacity = entry.registration.capacity();
        return entry.machine.lastSample().map(s -> (double) s.requestsRunning() / capacity).orElse(0.0);
    }

    /** One node's registration, machine, diagnosis and what was last published of it. */
    private static final class NodeEntry {

        volatile NodeRegistration registration;
        final NodeHealthMachine machine;
        final PassiveDiagnosis diagnosis = new PassiveDiagnosis();
        volatile NodeHealth lastPublished;
        volatile Instant lastPublishedAt;
        volatile boolean probeInFlight;
        volatile int partition = NO_PARTITION;
        boolean released;
        LoadShare load;

        NodeEntry(NodeRegistration registration, NodeHealthMachine machine) {
            this.registration = registration;
            this.machine = machine;
        }
    }
}
