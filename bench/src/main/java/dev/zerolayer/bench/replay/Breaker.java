package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.Resilience;
import java.util.ArrayDeque;

/**
 * The router's per-node circuit breaker on simulated time, with the semantics router-service configures in
 * Resilience4j: a count window of the last {@code breakerWindowSize} calls, opening when at least
 * {@code breakerMinimumCalls} were made and the failure share reaches {@code breakerFailureRatePercent}; open for the
 * cooldown, then half-open with one trial call whose outcome closes or reopens it.
 */
public final class Breaker {

    /** The breaker's state. */
    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int window;
    private final int minimumCalls;
    private final double failureRatePercent;
    private final double cooldownSeconds;
    private final ArrayDeque<Boolean> outcomes = new ArrayDeque<>();
    private State state = State.CLOSED;
    private double openedAt;
    private int halfOpenPermits;

    public Breaker(Resilience resilience) {
        this.window = Math.max(1, resilience.breakerWindowSize());
        this.minimumCalls = Math.max(1, resilience.breakerMinimumCalls());
        this.failureRatePercent = resilience.breakerFailureRatePercent();
        this.cooldownSeconds = Math.max(1, resilience.breakerCooldownMs()) / 1000.0;
    }

    public State state(double now) {
        if (state == State.OPEN && now - openedAt >= cooldownSeconds) {
            state = State.HALF_OPEN;
            halfOpenPermits = 1;
        }
        return state;
    }

    /** Whether the router reports this node's breaker open (half-open counts as not open). */
    public boolean open(double now) {
        return state(now) == State.OPEN;
    }

    /** Asks to make a call now; false when open, or half-open with its trial call taken. */
    public boolean tryAcquire(double now) {
        return switch (state(now)) {
            case CLOSED -> true;
            case OPEN -> false;
            case HALF_OPEN -> halfOpenPermits-- > 0;
        };
    }

    public void onSuccess(double now) {
        record(true, now);
    }

    public void onError(double now) {
        record(false, now);
    }

    private void record(boolean ok, double now) {
        State current = state(now);
        if (current == State.HALF_OPEN) {
            outcomes.clear();
            if (ok) {
                state = State.CLOSED;
            } else {
                state = State.OPEN;
                openedAt = now;
            }
            return;
        }
        if (current == State.OPEN) {
            return;
        }
        outcomes.addLast(ok);
        while (outcomes.size() > window) {
            outcomes.removeFirst();
        }
        if (outcomes.size() >= minimumCalls) {
            long failures = outcomes.stream().filter(o -> !o).count();
            if (failures * 100.0 / outcomes.size() >= failureRatePercent) {
                state = State.OPEN;
                openedAt = now;
                outcomes.clear();
            }
        }
    }
}
