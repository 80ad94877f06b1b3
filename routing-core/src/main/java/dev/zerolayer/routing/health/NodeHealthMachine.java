package dev.zerolayer.routing.health;

import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One node's health state machine (SPEC section 4), driven by sample time, never wall-clock: SM above the mark for the
 * hold time makes it UNAVAILABLE until SM stays below the recovery mark for the hold time; a warm-up makes it WARMING
 * until a good probe, sent the probe lead before the predicted ready time (or as soon as the node reports the warm-up
 * over); no sample within the staleness limit makes
 * it DOWN; otherwise it is DEGRADED below the score mark or with recent XID errors, else HEALTHY.
 */
public final class NodeHealthMachine {

    private final int capacity;
    private final WarmupHistory warmups;
    private HealthRules rules;

    private TelemetrySample lastSample;
    private Instant smHighSince;
    private Instant smLowSince;
    private boolean smUnavailable;
    private boolean stale = true;
    private boolean warming;
    private Instant warmupStartedAt;
    private Instant predictedReadyAt;
    private boolean probeFailedOnce;
    private Instant readySignalAt;
    private Instant lastXidIncreaseAt;
    private double score;
    private Instant restoredAt;

    public NodeHealthMachine(int capacity, HealthRules rules, WarmupHistory warmups) {
        this.capacity = Math.max(1, capacity);
        this.rules = rules;
        this.warmups = warmups;
    }

    /**
     * Seeds a new machine, after a restart of its owner, from the node's last published record: UNAVAILABLE stays
     * until SM has been below the recovery mark for the hold time, WARMING keeps its predicted ready time (and probe),
     * a routable state keeps its score until the next sample; without a sample within the staleness limit after
     * {@code at}, the node is DOWN as usual. A DOWN record restores nothing.
     */
    public synchronized void restore(NodeState state, double lastScore, Instant predicted, Instant at) {
        if (lastSample != null || state == NodeState.DOWN) {
            return;
        }
        if (state == NodeState.UNAVAILABLE) {
            smUnavailable = true;
        } else if (state == NodeState.WARMING && predicted != null) {
            warming = true;
            predictedReadyAt = predicted;
            warmupStartedAt = predicted.minusMillis(warmups.predictMs(rules.warmupDefaultMs()));
        }
        score = lastScore;
        stale = false;
        restoredAt = at;
    }

    /** Applies a sample; samples older than the last one are ignored. Returns the state after it. */
    public synchronized NodeState onSample(TelemetrySample sample) {
        Instant t = sample.occurredAt();
        if (lastSample != null && t.isBefore(lastSample.occurredAt())) {
            return state();
        }
        if (lastSample != null && sample.xidErrors() > lastSample.xidErrors()) {
            lastXidIncreaseAt = t;
        }
        lastSample = sample;
        stale = false;
        applySm(sample.smActive(), t);
        if (sample.warmingUp() && !warming) {
            warming = true;
            warmupStartedAt = t;
            probeFailedOnce = false;
            readySignalAt = null;
            predictedReadyAt = t.plusMillis(warmups.predictMs(rules.warmupDefaultMs()));
        } else if (warming && !sample.warmingUp() && readySignalAt == null) {
            // the node says its warm-up is over before the prediction: probe now rather than wait
            readySignalAt = t;
        }
        score = HealthScore.of(sample, capacity, recentErrors(t));
        return state();
    }

    private void applySm(double sm, Instant t) {
        if (sm > rules.smUnavailableAbove()) {
            smLowSince = null;
            if (smHighSince == null) {
                smHighSince = t;
            }
            if (!smUnavailable && held(smHighSince, t)) {
                smUnavailable = true;
            }
            return;
        }
        smHighSince = null;
        if (!smUnavailable) {
            return;
        }
        if (sm < rules.smRecoverBelow()) {
            if (smLowSince == null) {
                smLowSince = t;
            }
            if (held(smLowSince, t)) {
                smUnavailable = false;
                smLowSince = null;
            }
        } else {
            smLowSince = null;
        }
    }

    private boolean held(Instant since, Instant t) {
        return Duration.between(since, t).toMillis() >= rules.smHoldMs();
    }

    /** Marks the node DOWN when its last sample is older than the staleness limit at {@code now}. */
    public synchronized NodeState onTick(Instant now) {
        Instant heardOf = lastSample != null ? lastSample.occurredAt() : restoredAt;
        if (heardOf == null || Duration.between(heardOf, now).toMillis() > rules.sampleStaleMs()) {
            stale = true;
        }
        return state();
    }

    /** A warm-up probe's result: a good one ends WARMING and teaches the history; a bad one re-predicts. */
    public synchronized NodeState onProbe(boolean ok, Instant at) {
        if (!warming) {
            return state();
        }
        if (ok) {
            warmups.record(Duration.between(warmupStartedAt, at).toMillis());
            warming = false;
            warmupStartedAt = null;
            predictedReadyAt = null;
            readySignalAt = null;
        } else {
            readySignalAt = null;
            long predicted = Duration.between(warmupStartedAt, predictedReadyAt).toMillis();
            predictedReadyAt = at.plusMillis(Math.max(500, predicted / 4));
            probeFailedOnce = true;
        }
        return state();
    }

    /**
     * When the 1-token warm-up probe is due, while WARMING: the probe lead before the predicted ready time, or at once
     * when the node's own samples say the warm-up is over.
     */
    public synchronized Optional<Instant> probeDueAt() {
        if (!warming) {
            return Optional.empty();
        }
        Instant predicted = predictedReadyAt.minusMillis(rules.warmupProbeLeadMs());
        return Optional.of(readySignalAt != null && readySignalAt.isBefore(predicted) ? readySignalAt : predicted);
    }

    public synchronized NodeState state() {
        if (stale) {
            return NodeState.DOWN;
        }
        if (warming) {
            return NodeState.WARMING;
        }
        if (smUnavailable) {
            return NodeState.UNAVAILABLE;
        }
        if (score < rules.degradedBelow() || (lastSample != null && recentErrors(lastSample.occurredAt()))) {
            return NodeState.DEGRADED;
        }
        return NodeState.HEALTHY;
    }

    /** Health score in [0,1]; 0 for a node that is DOWN, WARMING or UNAVAILABLE. */
    public synchronized double score() {
        return state().routable() ? score : 0.0;
    }

    /** Why the node is in its state, in words an operator reads; no request data. */
    public synchronized List<String> reasons() {
        List<String> reasons = new ArrayList<>();
        if (stale) {
            reasons.add(lastSample == null ? "no sample yet" : "no sample for over " + rules.sampleStaleMs() + " ms");
        }
        if (warming) {
            reasons.add("warming up; ready predicted at " + predictedReadyAt
                    + (probeFailedOnce ? " (re-predicted after a failed probe)" : ""));
        }
        if (smUnavailable) {
            reasons.add("sm_active above " + rules.smUnavailableAbove() + " for " + rules.smHoldMs() + " ms");
        }
        if (lastSample != null && recentErrors(lastSample.occurredAt())) {
            reasons.add("new XID errors within " + rules.errorWindowMs() + " ms");
        }
        if (lastSample != null && !stale && !warming && !smUnavailable && score < rules.degradedBelow()) {
            reasons.add(String.format(java.util.Locale.ROOT, "score below %.2f", rules.degradedBelow()));
        }
        return reasons;
    }

    public synchronized Optional<Instant> predictedReadyAt() {
        return Optional.ofNullable(predictedReadyAt);
    }

    public synchronized Optional<TelemetrySample> lastSample() {
        return Optional.ofNullable(lastSample);
    }

    public synchronized void rules(HealthRules newRules) {
        this.rules = newRules;
    }

    public WarmupHistory warmups() {
        return warmups;
    }

    private boolean recentErrors(Instant t) {
        return lastXidIncreaseAt != null && Duration.between(lastXidIncreaseAt, t).toMillis() < rules.errorWindowMs();
    }
}
