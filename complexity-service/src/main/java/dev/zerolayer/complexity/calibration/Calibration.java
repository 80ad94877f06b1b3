package dev.zerolayer.complexity.calibration;

import dev.zerolayer.complexity.policy.ActivePolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.routing.decision.TierSelection;
import dev.zerolayer.routing.thresholds.TierThresholds;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calibration from {@code router.decisions.v1}: routed decisions (not rejected, not explain-only) go into the sliding
 * window with the tier the current policy's table gives them; the report and its proposal are for an operator to
 * apply (nothing is changed here), exposed over HTTP and as {@code zerolayer_complexity_calibration_*} gauges, and a new
 * proposal is logged once.
 */
public class Calibration {

    private static final Logger log = LoggerFactory.getLogger(Calibration.class);
    private static final Duration REFRESH = Duration.ofSeconds(1);
    private static final Set<DecisionStatus> NOT_ROUTED = Set.of(DecisionStatus.REJECTED, DecisionStatus.EXPLAINED);

    private final CalibrationWindow window;
    private final ActivePolicy policy;
    private final Calibrator.Settings settings;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Set<String> gaugedTiers = ConcurrentHashMap.newKeySet();
    private volatile Cached cached;
    private volatile List<Calibrator.Change> lastLogged = List.of();

    private record Cached(Calibrator.Report report, Instant at, long recorded) {
    }

    public Calibration(CalibrationWindow window, ActivePolicy policy, Calibrator.Settings settings, Clock clock,
            MeterRegistry meters) {
        this.window = window;
        this.policy = policy;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
        Gauge.builder("zerolayer.complexity.calibration.fallback.rate", this, c -> c.report().fallbackRate())
                .description("fallback rate of routed decisions in the calibration window").register(meters);
        Gauge.builder("zerolayer.complexity.calibration.decisions", this, c -> c.report().decisions())
                .description("routed decisions in the calibration window").register(meters);
        Gauge.builder("zerolayer.complexity.calibration.proposal.pending", this,
                c -> c.report().proposal().pending() ? 1 : 0)
                .description("1 while a threshold change is proposed for an operator").register(meters);
        Gauge.builder("zerolayer.complexity.calibration.predicted.fallback.rate", this,
                c -> c.report().proposal().predictedFallbackRate()).register(meters);
        TierThresholds.thresholds(policy.document()).keySet().forEach(this::gauge);
    }

    /** Takes one decision into the window (decisions that were never routed are ignored). */
    public void record(RoutingDecision decision) {
        if (decision.tier() == null || NOT_ROUTED.contains(decision.status())
                || !Double.isFinite(decision.complexityScore())) {
            return;
        }
        double score = Math.max(0, Math.min(1, decision.complexityScore()));
        PolicyDocument document = policy.document();
        boolean pinned = decision.rulesFired().stream().anyMatch(rule -> rule.startsWith("pin:"));
        window.record(new Observation(decision.occurredAt(), score,
                TierSelection.tableTier(document, decision.tokenCount(), score), decision.tier(), pinned,
                decision.fallbackTriggered(), decision.fallbackReason()));
    }

    /** The current report (recomputed when decisions arrived or a second passed). */
    public Calibrator.Report report() {
        Cached current = cached;
        Instant now = clock.instant();
        long recorded = window.recorded();
        if (current != null && current.recorded() == recorded && now.isBefore(current.at().plus(REFRESH))
                && !now.isBefore(current.at())) {
            return current.report();
        }
        Calibrator.Report report = Calibrator.calibrate(window.snapshot(), policy.document(), settings);
        cached = new Cached(report, now, recorded);
        report.proposal().current().keySet().forEach(this::gauge);
        logIfNew(report);
        return report;
    }

    public Duration window() {
        return window.window();
    }

    private void logIfNew(Calibrator.Report report) {
        List<Calibrator.Change> changes = report.proposal().changes();
        if (!changes.isEmpty() && !Objects.equals(changes, lastLogged)) {
            lastLogged = changes;
            log.info("calibration proposes {} (fallback rate {} over {} decisions, predicted {}; target {}); "
                    + "not applied: an operator applies it to the policy's tier table",
                    changes.stream().map(c -> c.tier() + " " + c.from() + "->" + c.to()).toList(),
                    String.format("%.4f", report.fallbackRate()), report.decisions(),
                    String.format("%.4f", report.proposal().predictedFallbackRate()),
                    report.targetFallbackRate());
        } else if (changes.isEmpty()) {
            lastLogged = List.of();
        }
    }

    private void gauge(String tier) {
        if (!gaugedTiers.add(tier)) {
            return;
        }
        Gauge.builder("zerolayer.complexity.calibration.threshold", this,
                c -> value(c.report().proposal().current(), tier))
                .tag("tier", tier).tag("kind", "current").register(meters);
        Gauge.builder("zerolayer.complexity.calibration.threshold", this,
                c -> value(c.report().proposal().proposed(), tier))
                .tag("tier", tier).tag("kind", "proposed").register(meters);
    }

    private static double value(Map<String, Double> thresholds, String tier) {
        Double value = thresholds.get(tier);
        return value == null ? Double.NaN : value;
    }
}
