package dev.zerolayer.cache.web;

import dev.zerolayer.cache.blocks.NodeBlocks;
import dev.zerolayer.cache.blocks.NodeBlocks.NodeSummary;
import dev.zerolayer.cache.decisions.DecisionsPerNode;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.view.CompactedView;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/cache/stats}: per node the blocks it holds, its last KV-event sequence, the decisions sent to it and
 * its health state; plus the total of blocks and the duplicates dropped.
 */
@RestController
public class CacheStatsController {

    private final NodeBlocks blocks;
    private final DecisionsPerNode decisions;
    private final CompactedView<NodeHealth> health;

    public CacheStatsController(NodeBlocks blocks, DecisionsPerNode decisions, CompactedView<NodeHealth> health) {
        this.blocks = blocks;
        this.decisions = decisions;
        this.health = health;
    }

    @GetMapping("/v1/cache/stats")
    public Map<String, Object> stats() {
        SortedMap<String, NodeSummary> kv = blocks.summary();
        SortedMap<String, Long> sent = decisions.byNode();
        Map<String, NodeHealth> states = health.snapshot();
        TreeSet<String> ids = new TreeSet<>(kv.keySet());
        ids.addAll(sent.keySet());
        ids.addAll(states.keySet());
        SortedMap<String, NodeStats> nodes = new TreeMap<>();
        for (String id : ids) {
            NodeSummary summary = kv.getOrDefault(id, new NodeSummary(0, -1));
            NodeHealth node = states.get(id);
            nodes.put(id, new NodeStats(summary.blocks(), summary.lastSequence(), sent.getOrDefault(id, 0L),
                    node == null ? null : node.state().name()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("nodes", nodes);
        body.put("totalBlocks", kv.values().stream().mapToLong(NodeSummary::blocks).sum());
        body.put("duplicatesDropped", blocks.duplicatesDropped());
        return body;
    }

    /** One node: blocks held, last KV-event sequence (-1: none), decisions sent to it, health state (null: unknown). */
    public record NodeStats(int blocks, long lastSequence, long decisions, String state) {
    }
}
