package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeState;
import java.util.List;

/**
 * What a router knows at decision time: per node the last health record that reached it (state, score, load, queue,
 * cluster spike flag — stale by the telemetry cadence and propagation), its own in-flight count and breaker, and the
 * node's KV index (prefix blocks held); every policy reads the same view.
 */
public final class RouterView {

    /** A node's health record as the router last received it. */
    public record Health(NodeState state, double score, double load, int queueDepth, boolean clusterLoadSpike,
            double stampedAt) {

        static final Health UNKNOWN = new Health(NodeState.DOWN, 0, 0, 0, false, Double.NEGATIVE_INFINITY);
    }

    private final List<SimNode> nodes;
    private final PolicyDocument policy;
    private final Health[] health;
    private final int[] inFlight;
    private final Breaker[] breakers;
    private final EventLoop loop;

    public RouterView(EventLoop loop, List<SimNode> nodes, PolicyDocument policy) {
        this.loop = loop;
        this.nodes = List.copyOf(nodes);
        this.policy = policy;
        this.health = new Health[nodes.size()];
        this.inFlight = new int[nodes.size()];
        this.breakers = new Breaker[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            health[i] = Health.UNKNOWN;
            breakers[i] = new Breaker(policy.resilience());
        }
    }

    public double now() {
        return loop.now();
    }

    public List<SimNode> nodes() {
        return nodes;
    }

    public int size() {
        return nodes.size();
    }

    public PolicyDocument policy() {
        return policy;
    }

    public Health health(int node) {
        return health[node];
    }

    /** Applies a delivered record unless a newer one already arrived (deliveries may overtake each other). */
    public void deliver(int node, Health record) {
        if (record.stampedAt() >= health[node].stampedAt()) {
            health[node] = record;
        }
    }

    public int inFlight(int node) {
        return inFlight[node];
    }

    void attemptStarted(int node) {
        inFlight[node]++;
    }

    void attemptEnded(int node) {
        inFlight[node]--;
    }

    public Breaker breaker(int node) {
        return breakers[node];
    }

    /** Liveness as any load balancer's health check sees it: the node is not reported DOWN. */
    public boolean alive(int node) {
        return health[node].state() != NodeState.DOWN;
    }
}
