package dev.zerolayer.contracts.router;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import dev.zerolayer.contracts.event.Event;
import java.time.Instant;
import java.util.List;

/**
 * One request's routing decision and outcome on {@code router.decisions.v1}, keyed by request id. Holds ids, hashes,
 * counts, scores and timings only: never prompt or completion text.
 *
 * @param sessionHash      hash of the session identity (never the raw id)
 * @param apiKeyId         hash prefix of the client API key, or {@code anonymous}
 * @param nodesTried       every node tried in order; the last one served when {@code status} is {@code ok}
 * @param prefixBlockHashes the prompt's chained block hashes (what was sent where, for approximate cache tracking)
 */
public record RoutingDecision(
        String eventId,
        Instant occurredAt,
        int schemaVersion,
        String requestId,
        String sessionHash,
        String apiKeyId,
        String clientApi,
        String requestedModel,
        boolean streaming,
        String tier,
        String cluster,
        String node,
        List<String> nodesTried,
        int tokenCount,
        double complexityScore,
        String complexityModelVersion,
        long policyVersion,
        List<String> rulesFired,
        boolean fallbackTriggered,
        String fallbackReason,
        String warning,
        boolean cacheHit,
        List<Long> prefixBlockHashes,
        long routeTimeMicros,
        long ttfbMillis,
        double chunkIntervalVarianceMs2,
        long totalLatencyMillis,
        int inputTokens,
        int outputTokens,
        DecisionStatus status,
        int httpStatus) implements Event {

    public static final int SCHEMA_VERSION = 1;

    public RoutingDecision {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(requestId, "requestId");
        text(clientApi, "clientApi");
        present(status, "status");
        nodesTried = nodesTried == null ? List.of() : List.copyOf(nodesTried);
        rulesFired = rulesFired == null ? List.of() : List.copyOf(rulesFired);
        prefixBlockHashes = prefixBlockHashes == null ? List.of() : List.copyOf(prefixBlockHashes);
        nonNegative(tokenCount, "tokenCount");
        nonNegative(routeTimeMicros, "routeTimeMicros");
    }

    @Override
    public String key() {
        return requestId;
    }
}
