package dev.zerolayer.cache.ingest;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code cache.kv-events.v1} to the block index, per node in sequence order: BLOCK_STORED adds, BLOCK_REMOVED
 * removes (unknown blocks are ignored), ALL_BLOCKS_CLEARED drops the node's blocks; an event whose sequence is not above
 * the node's last applied one (a duplicate or a late, out-of-order delivery) is dropped, and a jump in sequence is
 * applied and counted as a gap. Events of nodes that node-health does not know (yet) are accepted: nodes may report
 * before they register, and the router only scores nodes it knows. Blocks stored by a node DOWN past the grace period
 * are not added (its blocks leave the index, see NodeOwners): replaying the KV events after a takeover must not bring
 * them back, not even for a moment.
 */
public class KvEventIngest {

    private static final Logger log = LoggerFactory.getLogger(KvEventIngest.class);

    private final BlockIndex index;
    private final NodeModes modes;
    private final Consumer<String> onFirstReport;
    private final Map<String, NodeProgress> nodes = new ConcurrentHashMap<>();
    private final Counter applied;
    private final Counter stale;
    private final Counter gaps;
    private final Counter unknownRemovals;
    private final Counter goneStores;
    private final Predicate<String> gone;

    /**
     * @param onFirstReport called with a node id the first time it reports in this run (before its event is applied)
     * @param gone          whether a node is DOWN past the grace period: the blocks it stores are not added
     */
    public KvEventIngest(BlockIndex index, NodeModes modes, Consumer<String> onFirstReport, Predicate<String> gone,
            MeterRegistry meters) {
        this.gone = gone;
        this.goneStores = Counter.builder("zerolayer.cache.kv.down.stores")
                .description("Stored-block events of nodes DOWN past the grace period, not added to the index")
                .register(meters);
        this.index = index;
        this.modes = modes;
        this.onFirstReport = onFirstReport;
        this.applied = outcome(meters, "applied");
        this.stale = outcome(meters, "stale");
        this.gaps = Counter.builder("zerolayer.cache.kv.sequence.gaps")
                .description("Jumps in a node's KV-event sequence (events lost upstream)").register(meters);
        this.unknownRemovals = Counter.builder("zerolayer.cache.kv.unknown.removals")
                .description("Removed blocks the index did not hold for that node").register(meters);
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder("zerolayer.cache.kv.events").tag("outcome", outcome)
                .description("KV events read, by outcome (applied, or stale: duplicate or out of order)")
                .register(meters);
    }

    /** Applies one event unless it is stale; says whether it was applied. */
    public boolean apply(KvCacheEvent event) {
        String node = event.nodeId();
        if (modes.markReporting(node)) {
            onFirstReport.accept(node);
        }
        NodeProgress progress = nodes.computeIfAbsent(node, id -> new NodeProgress());
        synchronized (progress) {
            if (event.sequence() <= progress.lastSequence) {
                progress.stale++;
                stale.increment();
                return false;
            }
            if (progress.lastSequence >= 0 && event.sequence() > progress.lastSequence + 1) {
                progress.gaps++;
                gaps.increment();
            }
            progress.lastSequence = event.sequence();
            progress.applied++;
            switch (event.type()) {
                case BLOCK_STORED -> {
                    if (gone.test(node)) {
                        goneStores.increment();
                    } else {
                        event.blockHashes().forEach(block -> index.add(block, node));
                    }
                }
                case BLOCK_REMOVED -> {
                    for (long block : event.blockHashes()) {
                        if (!index.remove(block, node)) {
                            unknownRemovals.increment();
                        }
                    }
                }
                case ALL_BLOCKS_CLEARED -> {
                    int dropped = index.clearNode(node);
                    log.info("node {} cleared its KV cache (sequence {}): {} blocks dropped", node,
                            event.sequence(), dropped);
                }
            }
        }
        applied.increment();
        return true;
    }

    /** Per node that reported in this run: last applied sequence and event counts. */
    public SortedMap<String, Progress> progress() {
        SortedMap<String, Progress> result = new TreeMap<>();
        nodes.forEach((node, p) -> {
            synchronized (p) {
                result.put(node, new Progress(p.lastSequence, p.applied, p.stale, p.gaps));
            }
        });
        return result;
    }

    /** Stale events (duplicates and late deliveries) dropped since start, over the nodes this ingest applied. */
    public long staleDropped() {
        return progress().values().stream().mapToLong(Progress::stale).sum();
    }

    /** A node's KV-event progress: last applied sequence (-1: none), events applied, stale ones dropped, gaps seen. */
    public record Progress(long lastSequence, long applied, long stale, long gaps) {
    }

    private static final class NodeProgress {
        long lastSequence = -1;
        long applied;
        long stale;
        long gaps;
    }
}
