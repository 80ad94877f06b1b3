package dev.zerolayer.cache.web;

import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.ingest.KvEventIngest;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.restore.StateRestorer;
import dev.zerolayer.cache.session.SessionOwners;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.cache.stats.HitRatioWindow;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.replica.PartitionOwnership;
import dev.zerolayer.platform.view.CompactedView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/cache/stats}: blocks in the published index, per node the blocks it holds there, how they are known
 * (KV events or approximate) and its KV-event progress (where this replica owns the node's partition, else
 * {@code elsewhere}), the decisions sent to it and its health state; the hit ratio of the routed decisions over the
 * window; sessions; which partitions this replica owns and the (block, node) pairs of their nodes; what the restore read
 * back.
 */
@RestController
public class CacheStatsController {

    private final BlockIndex index;
    private final NodeOwners nodeOwners;
    private final BlockOwners blockOwners;
    private final SessionOwners sessionOwners;
    private final DecisionsPerNode decisions;
    private final HitRatioWindow hits;
    private final SessionTracker sessions;
    private final CompactedView<NodeHealth> health;
    private final StateRestorer restorer;

    public CacheStatsController(BlockIndex index, NodeOwners nodeOwners, BlockOwners blockOwners,
            SessionOwners sessionOwners, DecisionsPerNode decisions, HitRatioWindow hits, SessionTracker sessions, CompactedView<NodeHealth> health,
            StateRestorer restorer) {
        this.index = index;
        this.nodeOwners = nodeOwners;
        this.blockOwners = blockOwners;
        this.sessionOwners = sessionOwners;
        this.decisions = decisions;
        this.hits = hits;
        this.sessions = sessions;
        this.health = health;
        this.restorer = restorer;
    }

    @GetMapping("/v1/cache/stats")
    public Map<String, Object> stats() {
        SortedMap<String, Integer> held = index.blocksPerNode();
        List<NodeOwners.Nodes> owned = nodeOwners.ownedNodes();
        Set<Integer> ownedPartitions = nodeOwners.owned();
        SortedMap<String, KvEventIngest.Progress> progress = new TreeMap<>();
        owned.forEach(nodes -> progress.putAll(nodes.ingest().progress()));
        SortedMap<String, Long> sent = decisions.byNode();
        Map<String, NodeHealth> states = health.snapshot();
        TreeSet<String> ids = new TreeSet<>(held.keySet());
        ids.addAll(progress.keySet());
        ids.addAll(sent.keySet());
        ids.addAll(states.keySet());
        SortedMap<String, NodeStats> nodes = new TreeMap<>();
        for (String id : ids) {
            KvEventIngest.Progress p = progress.getOrDefault(id, new KvEventIngest.Progress(-1, 0, 0, 0));
            NodeHealth node = states.get(id);
            nodes.put(id, new NodeStats(held.getOrDefault(id, 0), mode(id, ownedPartitions, owned),
                    p.lastSequence(), p.stale(), p.gaps(), sent.getOrDefault(id, 0L),
                    node == null ? null : node.state().name()));
        }
        HitRatioWindow.Window window = hits.snapshot();
        Map<String, Object> hitRatio = new LinkedHashMap<>();
        hitRatio.put("windowSeconds", window.seconds());
        hitRatio.put("routed", window.routed());
        hitRatio.put("hits", window.hits());
        hitRatio.put("ratio", window.ratio());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("blocks", index.blocks());
        body.put("pairs", index.pairs());
        body.put("nodes", nodes);
        body.put("hitRatio", hitRatio);
        body.put("sessions", sessions.size());
        body.put("ownedPairs", owned.stream().mapToLong(n -> n.index().pairs()).sum());
        body.put("approximatePairs", owned.stream().mapToInt(n -> n.approximate().size()).sum());
        body.put("pendingHoldingsUpdates", owned.stream().mapToInt(n -> n.index().pendingChanges()).sum());
        body.put("staleEventsDropped", owned.stream().mapToLong(n -> n.ingest().staleDropped()).sum());
        Map<String, Object> ownership = new LinkedHashMap<>();
        ownership.put("nodePartitions", new TreeSet<>(ownedPartitions));
        ownership.put("nodeGeneration", nodeOwners.generation());
        ownership.put("blockPartitions", new TreeSet<>(blockOwners.owned()));
        ownership.put("blockGeneration", blockOwners.generation());
        ownership.put("sessionPartitions", new TreeSet<>(sessionOwners.owned()));
        ownership.put("sessionGeneration", sessionOwners.generation());
        ownership.put("relayedVllmNodes", nodeOwners.relayedNodes());
        body.put("owned", ownership);
        StateRestorer.Restored restored = restorer.restored();
        body.put("restored", restored == null ? null
                : Map.of("blocks", restored.blocks(), "sessions", restored.sessions(), "millis", restored.millis()));
        return body;
    }

    /** How a node's blocks are known: {@code events} or {@code approximate}, or {@code elsewhere} (another replica). */
    private String mode(String node, Set<Integer> ownedPartitions, List<NodeOwners.Nodes> owned) {
        int partitions = nodeOwners.partitionCount();
        if (partitions == 0 || !ownedPartitions.contains(PartitionOwnership.partitionOf(node, partitions))) {
            return "elsewhere";
        }
        return owned.stream().anyMatch(n -> n.modes().reports(node)) ? "events" : "approximate";
    }

    /**
     * One node: blocks held in the index, how they are known ({@code events}, {@code approximate}, or {@code
     * elsewhere} when another replica owns its partition), last KV-event sequence applied (-1: none this run, or not
     * here), stale events dropped, sequence gaps, decisions sent to it, health state (null: unknown to node-health).
     */
    public record NodeStats(int blocks, String mode, long lastSequence, long staleDropped, long gaps, long decisions,
            String state) {
    }
}
