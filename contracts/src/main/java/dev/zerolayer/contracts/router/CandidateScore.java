package dev.zerolayer.contracts.router;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.OptBoolean;
import java.util.Map;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * One node as the decision weighed it, for the decision event: excluded by a filter (with the reason) or scored, with
 * each scorer's term in [0,1] and its weighted share of the score, by scorer name; node ids and numbers only.
 *
 * @param node            the node
 * @param tier            its tier
 * @param cluster         its cluster
 * @param excludedBecause the first filter's reason for leaving it out, or null when it was scored
 * @param score           the weighted sum of its terms (0 when excluded)
 * @param terms           each scorer's term in [0,1], by scorer name (empty when excluded)
 * @param weightedTerms   each scorer's term times its weight, by scorer name (empty when excluded)
 * @param breakerOpen     whether the deciding router's circuit breaker for the node refused calls then (null in
 *                        records written before routers reported it)
 */
public record CandidateScore(String node, String tier, String cluster, String excludedBecause, double score,
        @JsonDeserialize(using = ScoreTerms.Reader.class) Map<String, Double> terms,
        @JsonDeserialize(using = ScoreTerms.Reader.class) Map<String, Double> weightedTerms,
        @JacksonInject(useInput = OptBoolean.TRUE, optional = OptBoolean.TRUE) Boolean breakerOpen) {

    public CandidateScore {
        terms = ScoreTerms.copyOf(terms);
        weightedTerms = ScoreTerms.copyOf(weightedTerms);
    }

    /** Whether it was scored (no filter left it out). */
    public boolean eligible() {
        return excludedBecause == null;
    }
}
