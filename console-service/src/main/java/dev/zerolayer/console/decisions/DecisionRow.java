package dev.zerolayer.console.decisions;

import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Instant;
import java.util.List;

/**
 * One routing decision as the console lists it: ids, where it went and why, and how long it took; never prompt text
 * (the topic holds none). {@code candidates} is null: decisions are recorded without their candidates' terms.
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
        List<Object> candidates) {

    static DecisionRow of(RoutingDecision d) {
        return new DecisionRow(d.requestId(), d.occurredAt(), d.apiKeyId(), d.clientApi(), d.streaming(), d.tier(),
                d.cluster(), d.node(), d.nodesTried(), d.fallbackTriggered(), d.fallbackReason(), d.rulesFired(),
                d.complexityScore(), d.tokenCount(), d.cacheHit(), d.routeTimeMicros(), d.ttfbMillis(),
                d.totalLatencyMillis(), d.status().name(), d.httpStatus(), d.policyVersion(), null);
    }
}
