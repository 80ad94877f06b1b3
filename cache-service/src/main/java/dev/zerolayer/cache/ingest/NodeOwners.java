package dev.zerolayer.cache.ingest;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvHoldingEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.RecordKeys;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.PartitionOwners;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.platform.replica.PublicationRound;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.StateConsumers;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node owners of cache-service (docs/ha.md, "Partitioned ownership"): the owner of {@code cache.kv-events.v1}
 * partition q applies the KV events of q's nodes (in sequence per node, as {@link KvEventIngest} does) and alone
 * publishes their holdings: {@code cache.kv-holdings.v1} keyed {@code <block>/q}, sent to the partition of the block's
 * key, listing the nodes of q that hold it (a tombstone when none does). A node of q that sends no KV events is
 * estimated from the decisions that routed to it ({@link ApproximateBlocks}); a node DOWN past the grace period loses
 * its blocks. Taking q over, it goes on from the holdings q published and the offset committed with them (or, with
 * none, replays q from the start of its retention), and reconciles with those holdings, so that it sends exactly the
 * difference. Every replica estimates every partition's nodes from every decision (those of partitions it does not own
 * apart, publishing nothing), so a new owner goes on with the estimates where the former left them. The owner of q
 * also relays q's bridged vLLM nodes into q, under q's writer.
 */
public final class NodeOwners extends PartitionOwners<NodeOwners.Nodes> {

    private static final Logger log = LoggerFactory.getLogger(NodeOwners.class);

    /** The consumer group the node owners share. */
    public static final String GROUP = "cache-service.nodes";

    private final int holdingsPartitions;
    private final int maxPerRound;
    private final Clock clock;
    private final MeterRegistry meters;

    /**
     * One owned events partition: the blocks its nodes hold, their events applied in order, which of them report, and
     * the estimates of the others.
     */
    public record Nodes(BlockIndex index, KvEventIngest ingest, NodeModes modes, ApproximateBlocks approximate) {
    }

    /** Takes a KV-event record that cannot be read (to dead-letter it), with the reason. */
    @FunctionalInterface
    public interface Refusals {
        void refuse(ConsumerRecord<byte[], byte[]> record, String reason);
    }

    /** How nodes that send no KV events are estimated: as {@link ApproximateBlocks} takes them. */
    public record Estimates(Duration ttl, int maxBlocksPerDecision, int maxBlocksPerNode) {
    }

    private final Estimates estimates;
    /** The estimates of the events partitions this replica does not own, kept for a takeover (polling thread only). */
    private final Map<Integer, ApproximateBlocks> elsewhere = new HashMap<>();
    private final Predicate<String> gone;
    private final Refusals refusals;
    private final Relays relays;
    private final Duration reportingWindow;
    private final AtomicLong resumed = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    /** The relays of the owned partitions (started and stopped on the polling thread). */
    private final Map<Integer, Relays.Relay> relaying = new ConcurrentHashMap<>();

    /**
     * @param writers            the writer of one partition (a transactional id of its own), made when it is gained
     * @param holdingsPartitions how many partitions {@code cache.kv-holdings.v1} has
     * @param gone     whether a node is DOWN past the grace period: its blocks leave the index, and what it stores is
     *                 not added
     * @param refusals takes each live KV-event record that cannot be read (a takeover's replay skips them)
     * @param reportingWindow a takeover that goes on from the committed offset reads this much of the partition's
     *                 newest events for which of its nodes report KV events
     * @param relays   the relays an owned partition runs (its bridged vLLM nodes)
     */
    public NodeOwners(String replica, String bootstrapServers, Map<String, ?> clientProperties,
            IntFunction<TermWriter> writers, int holdingsPartitions, int maxPerRound, Duration interval,
            Duration sessionTimeout, Estimates estimates, Duration reportingWindow, Predicate<String> gone,
            Refusals refusals, Relays relays, Clock clock, MeterRegistry meters) {
        super(Topics.CACHE_KV_EVENTS, GROUP, replica, bootstrapServers, clientProperties, writers, interval,
                sessionTimeout);
        this.estimates = estimates;
        this.gone = gone;
        this.refusals = refusals;
        this.relays = relays;
        this.reportingWindow = reportingWindow;
        this.holdingsPartitions = holdingsPartitions;
        this.maxPerRound = maxPerRound;
        this.clock = clock;
        this.meters = meters;
    }

    /** Estimates of nodes without KV events into {@code index}, as the settings say. */
    private ApproximateBlocks estimator(BlockIndex index, NodeModes modes) {
        return new ApproximateBlocks(index, modes, estimates.ttl(), estimates.maxBlocksPerDecision(),
                estimates.maxBlocksPerNode());
    }

    @Override
    protected Nodes newState(int partition) {
        BlockIndex index = new BlockIndex();
        NodeModes modes = new NodeModes();
        ApproximateBlocks approximate = estimator(index, modes);
        return new Nodes(index, new KvEventIngest(index, modes, approximate::forget, gone, meters), modes,
                approximate);
    }

    /**
     * Learns from one routing decision (every replica reads them all): the replica owning the decided node's events
     * partition estimates its blocks, unless the node sends KV events.
     */
    public void observe(RoutingDecision decision) {
        String node = decision.node();
        int partitions = partitionCount();
        if (node == null || node.isBlank() || partitions == 0) {
            return;
        }
        int partition = PartitionOwnership.partitionOf(node, partitions);
        onPollingThread(() -> {
            Nodes nodes = ownedState(partition);
            if (nodes != null) {
                nodes.approximate().observe(decision, clock.instant());
            } else {
                ApproximateBlocks estimated = elsewhere.computeIfAbsent(partition,
                        q -> estimator(new BlockIndex(), new NodeModes()));
                estimated.expire(clock.instant());
                estimated.observe(decision, clock.instant());
            }
        });
    }

    /**
     * Where the former owner's publication reached (the committed offset: everything before it is in the published
     * holdings), the partition goes on from there: the holdings of its nodes that report KV events (those with events
     * in the last {@code reportingWindow}) are taken as held, the others' as estimates. Without one (a first start, or
     * an offset past the retention), the partition is replayed from the start of its retention. Either way the
     * holdings it published are then reconciled with, so that only the difference is sent.
     */
    @Override
    protected Map<Integer, Long> takeOver(Map<Integer, Nodes> gained) {
        CompactedTopicReader reader = new CompactedTopicReader(bootstrapServers(), clientProperties());
        Map<Integer, Long> from = new HashMap<>(committedWithinLog(gained.keySet()));
        Set<Integer> resume = new TreeSet<>(from.keySet());
        Set<Integer> replay = new TreeSet<>(gained.keySet());
        replay.removeAll(resume);
        if (!replay.isEmpty()) {
            from.putAll(reader.readPartitionsToEnd(Topics.CACHE_KV_EVENTS_TOPIC, GROUP, replay, (record, event) -> {
                if (event != null) {
                    gained.get(record.partition()).ingest().apply(event);
                }
            }, CompactedTopicReader::skipUnreadable, this::running));
        }
        Map<Integer, Map<Long, List<String>>> published = new HashMap<>();
        gained.keySet().forEach(q -> published.put(q, new HashMap<>()));
        reader.readPartitionsToEnd(Topics.CACHE_KV_HOLDINGS_TOPIC, GROUP, null, key -> ofGained(key, gained),
                (record, entry) -> {
                    String key = RecordKeys.text(record.key());
                    Map<Long, List<String>> mine = published.get(KvHoldingEntry.eventsPartitionOf(key)); // gained
                    if (entry == null) {
                        mine.remove(KvHoldingEntry.blockOf(key));
                    } else {
                        mine.put(KvHoldingEntry.blockOf(key), entry.nodes());
                    }
                }, CompactedTopicReader::skipUnreadable, this::running);
        Map<Integer, Set<String>> reporting = reportingNodes(resume, from);
        gained.forEach((q, nodes) -> {
            if (resume.contains(q)) {
                seed(nodes, published.get(q), reporting.getOrDefault(q, Set.of()));
            }
            ApproximateBlocks estimated = elsewhere.remove(q);
            if (estimated != null) {
                nodes.approximate().adopt(estimated.snapshot(), clock.instant());
            }
            nodes.approximate().adopt(assumedFrom(published.get(q), nodes.modes()), clock.instant());
            nodes.index().reconcile(published.get(q));
        });
        resumed.addAndGet(resume.size());
        replayed.addAndGet(replay.size());
        log.info("{} partitions taken over: {} from the published holdings and their committed offsets, {} replayed "
                + "from the start", Topics.CACHE_KV_EVENTS, resume, replay);
        return from;
    }

    /** Whether a holdings key is of a gained events partition (an unreadable one is read, to be reported). */
    private static boolean ofGained(String key, Map<Integer, Nodes> gained) {
        try {
            return gained.containsKey(KvHoldingEntry.eventsPartitionOf(key));
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** The holdings a reporting node published are held as they are; it reports from here on (no estimates). */
    private void seed(Nodes nodes, Map<Long, List<String>> published, Set<String> reporting) {
        reporting.forEach(nodes.modes()::markReporting);
        published.forEach((block, holders) -> {
            for (String node : holders) {
                if (reporting.contains(node) && !gone.test(node)) {
                    nodes.index().add(block, node);
                }
            }
        });
    }

    /**
     * Per partition, the nodes with a KV event in its last {@code reportingWindow} or after the offset it goes on from
     * (their events will be applied: they report), read by key from the earlier of the two to the end.
     */
    private Map<Integer, Set<String>> reportingNodes(Set<Integer> partitions, Map<Integer, Long> goingOnFrom) {
        Map<Integer, Set<String>> reporting = new HashMap<>();
        if (partitions.isEmpty()) {
            return reporting;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = StateConsumers.open(bootstrapServers(), clientProperties(),
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000))) {
            Map<TopicPartition, Long> since = new HashMap<>();
            long start = clock.instant().minus(reportingWindow).toEpochMilli();
            partitions.forEach(q -> since.put(new TopicPartition(Topics.CACHE_KV_EVENTS, q), start));
            Map<TopicPartition, Long> end = consumer.endOffsets(since.keySet(), Duration.ofSeconds(30));
            consumer.assign(since.keySet());
            consumer.offsetsForTimes(since, Duration.ofSeconds(30)).forEach((tp, found) ->
                    consumer.seek(tp, Math.min(goingOnFrom.get(tp.partition()),
                            found == null ? end.get(tp) : found.offset())));
            while (running() && since.keySet().stream()
                    .anyMatch(tp -> consumer.position(tp, Duration.ofSeconds(30)) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key() != null) {
                        reporting.computeIfAbsent(record.partition(), q -> new HashSet<>())
                                .add(RecordKeys.text(record.key()));
                    }
                }
            }
        }
        return reporting;
    }

    /** Partitions taken over from the published holdings (and their committed offsets), and replayed from the start. */
    public long takeoversResumed() {
        return resumed.get();
    }

    /** Partitions taken over by replaying their KV events from the start of the retention. */
    public long takeoversReplayed() {
        return replayed.get();
    }

    /** Whether all an owned partition applied is published: its offset may be committed as the point to go on from. */
    @Override
    protected boolean published(Nodes nodes) {
        return nodes.index().pendingChanges() == 0;
    }

    /**
     * What the published holdings say of nodes that sent no KV event: assumed held for a time-to-live from now (refreshed
     * by the decisions that send their prompts there again), as estimates made here would be; none for a node gone.
     */
    private Map<String, Map<Long, Long>> assumedFrom(Map<Long, List<String>> published, NodeModes modes) {
        long expiry = clock.instant().plus(estimates.ttl()).toEpochMilli();
        Map<String, Map<Long, Long>> assumed = new HashMap<>();
        published.forEach((block, holders) -> {
            for (String node : holders) {
                if (!modes.reports(node) && !gone.test(node)) {
                    assumed.computeIfAbsent(node, n -> new java.util.LinkedHashMap<>()).put(block, expiry);
                }
            }
        });
        return assumed;
    }

    /** A partition taken over relays its bridged vLLM nodes, under its writer. */
    @Override
    protected void gained(int partition, Nodes nodes, TermWriter writer) {
        try {
            relaying.put(partition, relays.start(partition, partitionCount(), writer));
        } catch (RuntimeException e) {
            log.error("the relays of {} partition {} did not start: {}", Topics.CACHE_KV_EVENTS, partition,
                    e.toString());
        }
    }

    /** The bridged vLLM nodes this replica relays now. */
    public List<String> relayedNodes() {
        return relaying.values().stream().flatMap(relay -> relay.nodes().stream()).sorted().toList();
    }

    /** A partition given up stops its relays and keeps its estimates here, for a later takeover. */
    @Override
    protected void released(int partition, Nodes nodes) {
        Relays.Relay relay = relaying.remove(partition);
        if (relay != null) {
            relay.stop();
        }
        ApproximateBlocks kept = estimator(new BlockIndex(), new NodeModes());
        kept.adopt(nodes.approximate().snapshot(), clock.instant());
        elsewhere.put(partition, kept);
    }

    @Override
    protected void apply(Nodes nodes, ConsumerRecord<byte[], byte[]> record) {
        KvCacheEvent event;
        try {
            event = EventCodec.decode(record.value(), KvCacheEvent.class, RecordKeys.text(record.key()));
        } catch (InvalidEventException e) {
            log.warn("KV event {} partition {} offset {} refused: {}", record.topic(), record.partition(),
                    record.offset(), e.getMessage());
            refusals.refuse(record, e.getMessage());
            return;
        }
        nodes.ingest().apply(event);
    }

    /** The states of the events partitions this replica owns now (their parts are safe to read from any thread). */
    public List<Nodes> ownedNodes() {
        List<Nodes> states = new ArrayList<>();
        for (int q : owned()) {
            Nodes nodes = ownedState(q);
            if (nodes != null) {
                states.add(nodes);
            }
        }
        return states;
    }

    /**
     * The blocks whose holders among q's nodes changed (estimates expired and nodes gone DOWN first): those holders
     * now, or a tombstone.
     */
    @Override
    protected PublicationRound round(int partition, Nodes nodes, Writer stamp) {
        nodes.approximate().expire(clock.instant());
        for (String node : nodes.index().blocksPerNode().keySet()) {
            if (gone.test(node)) {
                nodes.index().clearNode(node);
                nodes.approximate().discard(node);
            }
        }
        long[] before = new long[maxPerRound];
        List<BlockIndex.Change> changes = nodes.index().drainChanges(maxPerRound, before);
        if (changes.isEmpty()) {
            return PublicationRound.EMPTY;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(changes.size());
        for (BlockIndex.Change change : changes) {
            String block = Long.toUnsignedString(change.blockHash());
            int target = PartitionOwnership.partitionOf(block, holdingsPartitions);
            records.add(TermWriter.record(Topics.CACHE_KV_HOLDINGS, target,
                    KvHoldingEntry.key(change.blockHash(), partition), change.nodes().isEmpty() ? null
                            : new KvHoldingEntry(EventChecks.newEventId(), clock.instant(),
                                    KvHoldingEntry.SCHEMA_VERSION, change.blockHash(), partition, change.nodes(),
                                    stamp)));
        }
        return new PublicationRound(records, () -> {
            for (int j = 0; j < changes.size(); j++) {
                nodes.index().requeue(changes.get(j).blockHash(), before[j]);
            }
        });
    }
}
