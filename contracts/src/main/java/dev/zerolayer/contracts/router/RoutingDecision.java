package dev.zerolayer.contracts.router;

import static dev.zerolayer.contracts.event.EventChecks.envelope;
import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.present;
import static dev.zerolayer.contracts.event.EventChecks.text;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
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
 * @param recoveries       streams broken mid-way and what the router did about each (continued, closed, not
 *                         continued), in order; empty in a record written before it existed
 * @param candidates       every node the decision weighed in the clusters it considered, with each scorer's term
 *                         (what {@code /v1/route/explain} shows); empty in a record written before it existed
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
        int httpStatus,
        @JacksonInject(value = "recoveries", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        List<Recovery> recoveries,
        @JacksonInject(value = "candidates", useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE)
        List<CandidateScore> candidates)
        implements Event {

    public static final int SCHEMA_VERSION = 1;

    public RoutingDecision {
        envelope(eventId, occurredAt, schemaVersion, SCHEMA_VERSION);
        text(requestId, "requestId");
        text(clientApi, "clientApi");
        present(status, "status");
        nodesTried = nodesTried == null ? List.of() : List.copyOf(nodesTried);
        rulesFired = rulesFired == null ? List.of() : List.copyOf(rulesFired);
        prefixBlockHashes = prefixBlockHashes == null ? List.of() : List.copyOf(prefixBlockHashes);
        recoveries = recoveries == null ? List.of() : List.copyOf(recoveries);
        candidates = candidates == null ? List.of() : List.copyOf(candidates);
        nonNegative(tokenCount, "tokenCount");
        nonNegative(routeTimeMicros, "routeTimeMicros");
    }

    @Override
    public String key() {
        return requestId;
    }

    /** A builder with every component empty but the schema version (current) and the lists (empty). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every component of this decision, to change some by name. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.eventId = eventId;
        builder.occurredAt = occurredAt;
        builder.schemaVersion = schemaVersion;
        builder.requestId = requestId;
        builder.sessionHash = sessionHash;
        builder.apiKeyId = apiKeyId;
        builder.clientApi = clientApi;
        builder.requestedModel = requestedModel;
        builder.streaming = streaming;
        builder.tier = tier;
        builder.cluster = cluster;
        builder.node = node;
        builder.nodesTried = nodesTried;
        builder.tokenCount = tokenCount;
        builder.complexityScore = complexityScore;
        builder.complexityModelVersion = complexityModelVersion;
        builder.policyVersion = policyVersion;
        builder.rulesFired = rulesFired;
        builder.fallbackTriggered = fallbackTriggered;
        builder.fallbackReason = fallbackReason;
        builder.warning = warning;
        builder.cacheHit = cacheHit;
        builder.prefixBlockHashes = prefixBlockHashes;
        builder.routeTimeMicros = routeTimeMicros;
        builder.ttfbMillis = ttfbMillis;
        builder.chunkIntervalVarianceMs2 = chunkIntervalVarianceMs2;
        builder.totalLatencyMillis = totalLatencyMillis;
        builder.inputTokens = inputTokens;
        builder.outputTokens = outputTokens;
        builder.status = status;
        builder.httpStatus = httpStatus;
        builder.recoveries = recoveries;
        builder.candidates = candidates;
        return builder;
    }

    /**
     * Builds a decision by naming each component (no run of positional Strings where tier and cluster could swap);
     * {@link #build()} checks it as the canonical constructor does.
     */
    public static final class Builder {

        private String eventId;
        private Instant occurredAt;
        private int schemaVersion = SCHEMA_VERSION;
        private String requestId;
        private String sessionHash;
        private String apiKeyId;
        private String clientApi;
        private String requestedModel;
        private boolean streaming;
        private String tier;
        private String cluster;
        private String node;
        private List<String> nodesTried = List.of();
        private int tokenCount;
        private double complexityScore;
        private String complexityModelVersion;
        private long policyVersion;
        private List<String> rulesFired = List.of();
        private boolean fallbackTriggered;
        private String fallbackReason;
        private String warning;
        private boolean cacheHit;
        private List<Long> prefixBlockHashes = List.of();
        private long routeTimeMicros;
        private long ttfbMillis;
        private double chunkIntervalVarianceMs2;
        private long totalLatencyMillis;
        private int inputTokens;
        private int outputTokens;
        private DecisionStatus status;
        private int httpStatus;
        private List<Recovery> recoveries = List.of();
        private List<CandidateScore> candidates = List.of();

        private Builder() {
        }

        public Builder eventId(String eventId) {
            this.eventId = eventId;
            return this;
        }

        public Builder occurredAt(Instant occurredAt) {
            this.occurredAt = occurredAt;
            return this;
        }

        public Builder schemaVersion(int schemaVersion) {
            this.schemaVersion = schemaVersion;
            return this;
        }

        public Builder requestId(String requestId) {
            this.requestId = requestId;
            return this;
        }

        public Builder sessionHash(String sessionHash) {
            this.sessionHash = sessionHash;
            return this;
        }

        public Builder apiKeyId(String apiKeyId) {
            this.apiKeyId = apiKeyId;
            return this;
        }

        public Builder clientApi(String clientApi) {
            this.clientApi = clientApi;
            return this;
        }

        public Builder requestedModel(String requestedModel) {
            this.requestedModel = requestedModel;
            return this;
        }

        public Builder streaming(boolean streaming) {
            this.streaming = streaming;
            return this;
        }

        public Builder tier(String tier) {
            this.tier = tier;
            return this;
        }

        public Builder cluster(String cluster) {
            this.cluster = cluster;
            return this;
        }

        public Builder node(String node) {
            this.node = node;
            return this;
        }

        public Builder nodesTried(List<String> nodesTried) {
            this.nodesTried = nodesTried;
            return this;
        }

        public Builder tokenCount(int tokenCount) {
            this.tokenCount = tokenCount;
            return this;
        }

        public Builder complexityScore(double complexityScore) {
            this.complexityScore = complexityScore;
            return this;
        }

        public Builder complexityModelVersion(String complexityModelVersion) {
            this.complexityModelVersion = complexityModelVersion;
            return this;
        }

        public Builder policyVersion(long policyVersion) {
            this.policyVersion = policyVersion;
            return this;
        }

        public Builder rulesFired(List<String> rulesFired) {
            this.rulesFired = rulesFired;
            return this;
        }

        public Builder fallbackTriggered(boolean fallbackTriggered) {
            this.fallbackTriggered = fallbackTriggered;
            return this;
        }

        public Builder fallbackReason(String fallbackReason) {
            this.fallbackReason = fallbackReason;
            return this;
        }

        public Builder warning(String warning) {
            this.warning = warning;
            return this;
        }

        public Builder cacheHit(boolean cacheHit) {
            this.cacheHit = cacheHit;
            return this;
        }

        public Builder prefixBlockHashes(List<Long> prefixBlockHashes) {
            this.prefixBlockHashes = prefixBlockHashes;
            return this;
        }

        public Builder routeTimeMicros(long routeTimeMicros) {
            this.routeTimeMicros = routeTimeMicros;
            return this;
        }

        public Builder ttfbMillis(long ttfbMillis) {
            this.ttfbMillis = ttfbMillis;
            return this;
        }

        public Builder chunkIntervalVarianceMs2(double chunkIntervalVarianceMs2) {
            this.chunkIntervalVarianceMs2 = chunkIntervalVarianceMs2;
            return this;
        }

        public Builder totalLatencyMillis(long totalLatencyMillis) {
            this.totalLatencyMillis = totalLatencyMillis;
            return this;
        }

        public Builder inputTokens(int inputTokens) {
            this.inputTokens = inputTokens;
            return this;
        }

        public Builder outputTokens(int outputTokens) {
            this.outputTokens = outputTokens;
            return this;
        }

        public Builder status(DecisionStatus status) {
            this.status = status;
            return this;
        }

        public Builder httpStatus(int httpStatus) {
            this.httpStatus = httpStatus;
            return this;
        }

        public Builder recoveries(List<Recovery> recoveries) {
            this.recoveries = recoveries;
            return this;
        }

        public Builder candidates(List<CandidateScore> candidates) {
            this.candidates = candidates;
            return this;
        }

        public RoutingDecision build() {
            return new RoutingDecision(eventId, occurredAt, schemaVersion, requestId, sessionHash, apiKeyId, clientApi,
                    requestedModel, streaming, tier, cluster, node, nodesTried, tokenCount, complexityScore,
                    complexityModelVersion, policyVersion, rulesFired, fallbackTriggered, fallbackReason, warning,
                    cacheHit, prefixBlockHashes, routeTimeMicros, ttfbMillis, chunkIntervalVarianceMs2,
                    totalLatencyMillis, inputTokens, outputTokens, status, httpStatus, recoveries, candidates);
        }
    }
}

