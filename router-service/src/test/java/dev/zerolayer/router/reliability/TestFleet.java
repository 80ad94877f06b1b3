package dev.zerolayer.router.reliability;

import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.testing.FakeNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A defined fleet for router tests: one healthy fake node per tier (haiku speaks OpenAI, the others Anthropic) in
 * clusters named for this run only, and a policy naming just those clusters, so no record left on the shared broker by
 * another test can take part in a decision.
 */
public final class TestFleet implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(60);

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final List<FakeNode> nodes = new ArrayList<>();
    private final List<NodeHealth> health = new ArrayList<>();
    private final FallbackPolicy policy;
    private volatile KafkaTestClient publishedWith;

    public TestFleet() throws IOException {
        for (String tier : List.of("haiku", "sonnet", "opus")) {
            boolean openAi = tier.equals("haiku");
            FakeNode node = new FakeNode(FakeNode.Mode.OK, openAi, "reply from " + tier);
            nodes.add(node);
            String id = tier + "-node-" + run;
            NodeRegistration registration = NodeRegistration.of(id, tier, cluster(tier), null, node.baseUrl(),
                    openAi ? UpstreamProtocol.OPENAI : UpstreamProtocol.ANTHROPIC, "node-model-" + tier, 64, "test");
            health.add(new NodeHealth(UUID.randomUUID().toString(), Instant.now(), 1, id, registration,
                    NodeState.HEALTHY, 0.95, List.of(), null, 0.1, 0, 0.1, null, List.of(), 10, false, 1));
        }
        PolicyDocument d = PolicyDocument.defaults();
        TierLimits limits = new TierLimits(2_000, 10_000);
        PolicyDocument document = new PolicyDocument(
                List.of(new TierSpec("haiku", d.tiers().get(0).modelAliases(), List.of(cluster("haiku"))),
                        new TierSpec("sonnet", d.tiers().get(1).modelAliases(), List.of(cluster("sonnet"))),
                        new TierSpec("opus", d.tiers().get(2).modelAliases(), List.of(cluster("opus")))),
                d.tierTable(), d.chains(), Map.of(), d.thresholds(),
                Map.of("haiku", limits, "sonnet", limits, "opus", limits), d.resilience(), Map.of());
        policy = new FallbackPolicy(UUID.randomUUID().toString(), Instant.now(), 1, System.currentTimeMillis(), "test",
                document);
    }

    public String cluster(String tier) {
        return tier + "-" + run;
    }

    public List<FakeNode> nodes() {
        return List.copyOf(nodes);
    }

    public List<String> nodeIds() {
        return health.stream().map(NodeHealth::nodeId).toList();
    }

    /** Publishes policy and node health, then waits until the router's views hold exactly them. */
    @SuppressWarnings("unchecked")
    public void publishTo(RunningService router, KafkaTestClient kafka) {
        this.publishedWith = kafka;
        await().atMost(WAIT).until(() -> router.bean(TopicGuard.class).ready());
        kafka.publish(Topics.FALLBACK_POLICY, policy);
        health.forEach(node -> kafka.publish(Topics.TELEMETRY_NODE_HEALTH, node));
        CompactedView<NodeHealth> view = router.bean("nodeHealth", CompactedView.class);
        CompactedView<FallbackPolicy> policies = router.bean("fallbackPolicy", CompactedView.class);
        await().atMost(WAIT).until(() -> health.stream().allMatch(n -> view.get(n.nodeId()).isPresent())
                && policies.get(FallbackPolicy.KEY).map(p -> p.version() == policy.version()).orElse(false));
    }

    /** Closes the fake nodes and, when published, removes the fleet's node-health records (tombstones). */
    @Override
    public void close() {
        nodes.forEach(FakeNode::close);
        KafkaTestClient kafka = publishedWith;
        if (kafka != null) {
            try {
                health.forEach(node -> kafka.send(Topics.TELEMETRY_NODE_HEALTH, node.nodeId(), null));
            } catch (IllegalStateException e) {
                // the client or its broker is already gone (a test that closes them first): nothing to remove
            }
        }
    }
}
