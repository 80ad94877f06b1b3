package dev.zerolayer.router.state;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.dispatch.NodeGuards;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeTraits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The nodes the router knows, only from {@code telemetry.node-health.v1}: placement from each record's registration,
 * health from the record, and the router's own in-flight count and breaker state per node. A record older than the
 * policy's {@code viewStaleMs} (telemetry-service or the broker gone) is not trusted: the node then counts as
 * routable with a fixed score and no reported load, and only the router's own observations (in-flight requests,
 * the breaker opened by recent failures) tell it apart. With a {@link TtftLearner}, each candidate carries its node's
 * learned TTFT model.
 */
public class Fleet {

    /**
     * Health score given to a node whose record is stale: above any sane cluster-health mark, so old data alone never
     * makes a cluster fall back (rule 7), and below a fresh healthy node's, so fresh records win; breakers and
     * in-flight counts tell stale nodes apart.
     */
    static final double STALE_SCORE = 0.9;

    private final CompactedView<NodeHealth> health;
    private final NodeGuards guards;
    private final ActivePolicy policy;
    private final Clock clock;
    private final TtftLearner ttft;

    public Fleet(CompactedView<NodeHealth> health, NodeGuards guards, ActivePolicy policy, Clock clock) {
        this(health, guards, policy, clock, null);
    }

    /** A fleet whose candidates carry each node's learned TTFT model ({@code ttft} null: none). */
    public Fleet(CompactedView<NodeHealth> health, NodeGuards guards, ActivePolicy policy, Clock clock,
            TtftLearner ttft) {
        this.health = health;
        this.guards = guards;
        this.policy = policy;
        this.clock = clock;
        this.ttft = ttft;
    }

    /** Every known node as a decision candidate, holding no prompt blocks. */
    public List<NodeCandidate> candidates() {
        return candidates(Map.of());
    }

    /** Every known node as a decision candidate, with the prompt's leading blocks each one holds. */
    public List<NodeCandidate> candidates(Map<String, Integer> leadingBlocksHeld) {
        Instant now = clock.instant();
        long staleMs = policy.document().thresholds().viewStaleMs();
        List<NodeCandidate> candidates = new ArrayList<>();
        for (NodeHealth node : health.values()) {
            NodeRegistration registration = node.registration();
            boolean stale = Duration.between(node.occurredAt(), now).toMillis() > staleMs;
            candidates.add(new NodeCandidate(node.nodeId(), registration.tier(), registration.cluster(),
                    stale ? NodeState.HEALTHY : node.state(), stale ? STALE_SCORE : node.score(),
                    stale ? 0.0 : node.load(), stale ? 0 : node.queueDepth(), registration.capacity(),
                    guards.inFlight(node.nodeId()), guards.breakerOpen(node.nodeId()),
                    leadingBlocksHeld.getOrDefault(node.nodeId(), 0), !stale && node.clusterLoadSpike(),
                    traits(registration), ttft == null ? null : ttft.model(registration)));
        }
        return candidates;
    }

    private static NodeTraits traits(NodeRegistration registration) {
        String protocol = registration.protocol() == null ? null : registration.protocol().wireName();
        if (registration.adapters().isEmpty() && registration.costPerMillionTokens() == null) {
            return protocol == null ? NodeTraits.NONE : PLAIN.get(registration.protocol());
        }
        return new NodeTraits(Set.copyOf(registration.adapters()), registration.costPerMillionTokens() == null
                ? Double.NaN : registration.costPerMillionTokens(), protocol);
    }

    /** The traits of a node that declares only its API, one per API. */
    private static final Map<UpstreamProtocol, NodeTraits> PLAIN = Arrays.stream(UpstreamProtocol.values())
            .collect(Collectors.toUnmodifiableMap(p -> p, p -> new NodeTraits(Set.of(), Double.NaN, p.wireName())));

    /** How many node records are older than the policy's stale limit right now. */
    public int staleRecords() {
        Instant now = clock.instant();
        long staleMs = policy.document().thresholds().viewStaleMs();
        return (int) health.values().stream()
                .filter(node -> Duration.between(node.occurredAt(), now).toMillis() > staleMs).count();
    }

    /** Every known node's registration. */
    public List<NodeRegistration> registrations() {
        List<NodeRegistration> registrations = new ArrayList<>();
        for (NodeHealth node : health.values()) {
            registrations.add(node.registration());
        }
        return registrations;
    }

    public Optional<NodeRegistration> registration(String nodeId) {
        return health.get(nodeId).map(NodeHealth::registration);
    }
}
