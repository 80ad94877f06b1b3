package dev.zerolayer.simulator.node;

import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * A node's warm-up: while warming, requests wait at the gate; a warm-up ends at its end time (a longer one extends it)
 * or when ended early, and then every waiter passes at once.
 */
final class WarmGate {

    private final Scheduler timers;
    private Sinks.Empty<Void> done;
    private Disposable timer;
    private long endsAtNanos;

    WarmGate(Scheduler timers) {
        this.timers = timers;
    }

    synchronized boolean warming() {
        return done != null;
    }

    /** Completes now when not warming, else when the warm-up ends. */
    synchronized Mono<Void> await() {
        return done == null ? Mono.empty() : done.asMono();
    }

    /** Starts a warm-up of {@code nanos}, or extends the current one to end no earlier than that. */
    synchronized void warmFor(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long endsAt = System.nanoTime() + nanos;
        if (done == null) {
            done = Sinks.empty();
        } else if (endsAt <= endsAtNanos) {
            return;
        }
        endsAtNanos = endsAt;
        if (timer != null) {
            timer.dispose();
        }
        timer = timers.schedule(() -> endIfDue(endsAt), nanos, TimeUnit.NANOSECONDS);
    }

    private void endIfDue(long endsAt) {
        synchronized (this) {
            if (done == null || endsAtNanos != endsAt) {
                return;
            }
        }
        end();
    }

    /** Ends the warm-up now (if any). */
    void end() {
        Sinks.Empty<Void> finished;
        synchronized (this) {
            finished = done;
            done = null;
            if (timer != null) {
                timer.dispose();
                timer = null;
            }
        }
        if (finished != null) {
            finished.tryEmitEmpty();
        }
    }
}
