package dev.zerolayer.bench.replay;

import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.ttft.TtftModel;
import dev.zerolayer.routing.ttft.TtftPredictor;
import java.util.Arrays;

/**
 * A policy's routing-core {@link TtftPredictor} fed as router-service feeds it: each node starts from its hardware
 * profile's prior; the router tracks its own attempts still waiting for a first byte per node and their uncached
 * tokens (the node's prefill backlog); each attempt records what the router saw when sending it and the prediction,
 * and learns from its observed time to first byte; the absolute errors are kept for the report.
 */
final class TtftLearning {

    /** Output tokens a request is assumed to hold a slot for in the prior (the trace's median is of this order). */
    static final int PRIOR_OUTPUT_TOKENS = 200;

    /** What the router saw when it sent an attempt, and what it predicted; open until its first byte or failure. */
    static final class Ticket {
        final int node;
        final String nodeId;
        final double queued;
        final int uncached;
        final long pending;
        final double slotWait;
        final double busy;
        final double predictedMs;
        boolean open = true;

        Ticket(int node, String nodeId, double queued, int uncached, long pending, double slotWait, double busy,
                double predictedMs) {
            this.node = node;
            this.nodeId = nodeId;
            this.queued = queued;
            this.uncached = uncached;
            this.pending = pending;
            this.slotWait = slotWait;
            this.busy = busy;
            this.predictedMs = predictedMs;
        }
    }

    /** The replay runs faster than time passes: its models never go stale (as when its results were recorded). */
    private final TtftPredictor predictor = new TtftPredictor(TtftModel.generic(), () -> 0L, Long.MAX_VALUE);
    /** Per node: the router's attempts still waiting for a first byte, and their uncached tokens. */
    private int[] awaiting = new int[0];
    private long[] pendingTokens = new long[0];
    private double[] errorsMs = new double[1024];
    private double[] relative = new double[1024];
    private int errors;

    /** The node's prior from its profile: overhead, prefill rate, slots, and a slot held for the decode. */
    static TtftModel prior(NodeProfile profile) {
        double holdMs = 1000.0 * PRIOR_OUTPUT_TOKENS * profile.interTokenSeconds(profile.capacity() / 2);
        return TtftModel.prior(1000 * profile.firstTokenOverheadSeconds(), profile.prefillTokensPerSecond(),
                profile.capacity(), holdMs);
    }

    TtftModel model(SimNode node) {
        predictor.register(node.id(), prior(node.profile()));
        return predictor.model(node.id());
    }

    /** The candidate the router would build for this node now, with its TTFT model. */
    NodeCandidate candidate(int i, SimRequest request, RouterView view) {
        SimNode node = view.nodes().get(i);
        RouterView.Health health = view.health(i);
        return new NodeCandidate(node.id(), node.member().tier(), node.member().cluster(), health.state(),
                health.score(), health.load(), health.queueDepth(), node.profile().capacity(), view.inFlight(i),
                view.breaker(i).open(view.now()), node.prefixBlocksHeld(request.blocks()),
                health.clusterLoadSpike(), null, model(node), awaiting(i, view.size()), pendingTokens[i]);
    }

    private int awaiting(int node, int nodes) {
        if (awaiting.length < nodes) {
            awaiting = Arrays.copyOf(awaiting, nodes);
            pendingTokens = Arrays.copyOf(pendingTokens, nodes);
        }
        return awaiting[node];
    }

    Ticket attempt(SimRequest request, int node, RouterView view) {
        NodeCandidate c = candidate(node, request, view);
        int uncached = Math.max(0, request.contextTokens() - c.prefixBlocksHeld() * NodeCandidate.BLOCK_TOKENS);
        Ticket ticket = new Ticket(node, c.nodeId(), c.queuedAhead(), uncached, c.pendingPrefillTokens(),
                c.slotWait(), c.busyShare(), c.ttft().predictMs(c.queuedAhead(), uncached, c.pendingPrefillTokens(),
                        c.slotWait(), c.busyShare()));
        awaiting[node]++;
        pendingTokens[node] += uncached;
        return ticket;
    }

    /** The attempt ended without a first byte: it no longer waits. */
    void abandoned(Ticket ticket) {
        close(ticket);
    }

    private void close(Ticket ticket) {
        if (ticket.open) {
            ticket.open = false;
            awaiting[ticket.node]--;
            pendingTokens[ticket.node] -= ticket.uncached;
        }
    }

    void firstByte(Ticket ticket, double seconds) {
        close(ticket);
        double observedMs = seconds * 1000;
        predictor.observe(ticket.nodeId, ticket.queued, ticket.uncached, ticket.pending, ticket.slotWait, ticket.busy,
                observedMs);
        if (errors == errorsMs.length) {
            errorsMs = Arrays.copyOf(errorsMs, errors * 2);
            relative = Arrays.copyOf(relative, errors * 2);
        }
        errorsMs[errors] = Math.abs(ticket.predictedMs - observedMs);
        relative[errors] = Math.abs(ticket.predictedMs - observedMs) / Math.max(1.0, observedMs);
        errors++;
    }

    /** p50 and p90 of |predicted − observed| in ms and relative to observed, over every first byte; null if none. */
    Metrics.PredictionError error() {
        if (errors == 0) {
            return null;
        }
        double[] ms = Arrays.copyOf(errorsMs, errors);
        double[] rel = Arrays.copyOf(relative, errors);
        Arrays.sort(ms);
        Arrays.sort(rel);
        return new Metrics.PredictionError(errors, quantile(ms, 0.5), quantile(ms, 0.9), quantile(rel, 0.5),
                quantile(rel, 0.9));
    }

    private static double quantile(double[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }
}
