package dev.zerolayer.router.dispatch;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What dispatching one request did: nodes tried in order, the node that served (null until a first byte arrived), the
 * last failure reason, time to first byte and the variance of the intervals between upstream chunks (Welford).
 */
public class DispatchTrace {

    private final long startNanos = System.nanoTime();
    private final List<String> tried = new CopyOnWriteArrayList<>();
    private volatile String servedNode;
    private volatile NodeRegistration served;
    private volatile String lastFailure;
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

    synchronized void chunk(String node, NodeRegistration registration) {
        long now = System.nanoTime();
        if (servedNode == null) {
            servedNode = node;
            served = registration;
            ttfbNanos = now - startNanos;
        } else {
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

    public NodeRegistration served() {
        return served;
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Whether a node other than the first tried served (bypass). */
    public boolean bypassed() {
        return servedNode != null && !tried.isEmpty() && !tried.get(0).equals(servedNode);
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
