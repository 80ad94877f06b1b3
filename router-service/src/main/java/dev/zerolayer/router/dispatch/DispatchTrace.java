package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.router.Recovery;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What dispatching one request did: nodes tried in order, the node that served (null until the client got a first
 * element; a continuation's node after a break) and what its attempt served, streams broken mid-way and what was done
 * about each, the last failure reason, time to the client's first element and the variance
 * of the intervals between the elements that followed (Welford).
 */
public class DispatchTrace {

    private final long startNanos = System.nanoTime();
    private final List<String> tried = new CopyOnWriteArrayList<>();
    private final List<Recovery> recoveries = new CopyOnWriteArrayList<>();
    private volatile String servedNode;
    private volatile String firstServedNode;
    private volatile NodeRegistration served;
    private volatile Object servedAnswer;
    private volatile String lastFailure;
    private volatile boolean upstreamBegan;
    private volatile long ttfbNanos = -1;
    private long lastChunkNanos;
    private long intervals;
    private double mean;
    private double m2;

    void attempting(String node) {
        tried.add(node);
    }

    void failed(String reason) {
        lastFailure = reason;
    }

    /** A node's answer sent its first bytes (for a whole answer, long before the client's one element). */
    void firstUpstreamByte() {
        upstreamBegan = true;
    }

    /** Whether any node's answer has sent bytes yet. */
    boolean upstreamBegan() {
        return upstreamBegan;
    }

    /**
     * The client got its first element from this node's attempt, which served {@code answer} (a continuation's node
     * serves the rest; the time to the first element stays the first's).
     */
    synchronized void served(String node, NodeRegistration registration, Object answer) {
        servedNode = node;
        served = registration;
        servedAnswer = answer;
        if (ttfbNanos < 0) {
            ttfbNanos = System.nanoTime() - startNanos;
            firstServedNode = node;
        }
    }

    /** What was done about a stream a node broke mid-way. */
    public void recovered(Recovery recovery) {
        recoveries.add(recovery);
    }

    /** Streams broken mid-way and what was done about each, in order. */
    public List<Recovery> recoveries() {
        return List.copyOf(recoveries);
    }

    /** The client got an element (the first one included). */
    synchronized void chunk() {
        long now = System.nanoTime();
        if (lastChunkNanos != 0) {
            double interval = (now - lastChunkNanos) / 1e6;
            intervals++;
            double delta = interval - mean;
            mean += delta / intervals;
            m2 += delta * (interval - mean);
        }
        lastChunkNanos = now;
    }

    public List<String> tried() {
        return List.copyOf(tried);
    }

    public String servedNode() {
        return servedNode;
    }

    /** The node that began the answer (the served node unless a continuation went on elsewhere). */
    public String firstServedNode() {
        return firstServedNode;
    }

    public NodeRegistration served() {
        return served;
    }

    /** What the serving attempt served (its {@link Attempt#served()}), null before the client got anything. */
    public Object servedAnswer() {
        return servedAnswer;
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Whether a node other than the first tried began the answer (bypass; a continuation elsewhere is not one). */
    public boolean bypassed() {
        return firstServedNode != null && !tried.isEmpty() && !tried.get(0).equals(firstServedNode);
    }

    public long ttfbMillis() {
        return ttfbNanos < 0 ? 0 : ttfbNanos / 1_000_000;
    }

    public long ttfbNanos() {
        return ttfbNanos;
    }

    public synchronized double chunkIntervalVarianceMs2() {
        return intervals < 2 ? 0.0 : m2 / (intervals - 1);
    }

    public long elapsedMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    public long startNanos() {
        return startNanos;
    }
}
