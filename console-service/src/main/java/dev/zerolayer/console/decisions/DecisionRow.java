package dev.zerolayer.console.decisions;

import dev.zerolayer.contracts.router.CandidateScore;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One routing decision as the console lists it: ids, where it went and why, how long it took, and every candidate the
 * decision weighed with its terms (null for a record written without them); never prompt text (the topic holds none).
 */
public record DecisionRow(
        String requestId,
        Instant at,
        String apiKeyId,
        String clientApi,
        boolean streaming,
        String tier,
        String cluster,
        String node,
        List<String> nodesTried,
        boolean fallbackTriggered,
        String fallbackReason,
        List<String> rulesFired,
        double complexityScore,
        int tokenCount,
        boolean cacheHit,
        long routeTimeMicros,
        long ttfbMillis,
        long totalLatencyMillis,
        String status,
        int httpStatus,
        long policyVersion,
        List<Candidate> candidates) {

    /** One weighed node: eligible or why not, its breaker, its score and each scorer's term, raw and weighted. */
    public record Candidate(String node, String tier, String cluster, boolean eligible, String excludedBecause,
            Boolean breakerOpen, double score, Map<String, Double> terms, Map<String, Double> weightedTerms) {

        static Candidate of(CandidateScore c) {
            return new Candidate(c.node(), c.tier(), c.cluster(), c.eligible(), c.excludedBecause(), c.breakerOpen(),
                    c.score(), c.terms(), c.weightedTerms());
        }
    }

    static DecisionRow of(RoutingDecision d) {
        return new DecisionRow(d.requestId(), d.occurredAt(), d.apiKeyId(), d.clientApi(), d.streaming(), d.tier(),
                d.cluster(), d.node(), d.nodesTried(), d.fallbackTriggered(), d.fallbackReason(), d.rulesFired(),
                d.complexityScore(), d.tokenCount(), d.cacheHit(), d.routeTimeMicros(), d.ttfbMillis(),
                d.totalLatencyMillis(), d.status().name(), d.httpStatus(), d.policyVersion(),
                d.candidates().isEmpty() ? null : d.candidates().stream().map(Candidate::of).toList());
    }
}
