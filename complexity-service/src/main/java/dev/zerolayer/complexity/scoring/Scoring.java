package dev.zerolayer.complexity.scoring;

import dev.zerolayer.complexity.model.ActiveModel;
import dev.zerolayer.routing.complexity.ComplexityScore;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.tokens.TokenCounter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Scores conversations with one snapshot of the active model (the same model for a whole batch) and counts their
 * tokens with that model's tokenizer; counted in {@code zerolayer_complexity_scored_total}.
 */
public class Scoring {

    /** A scored batch: the model version used, its encoder (null: none) and one result per item, in order. */
    public record Batch(String modelVersion, String tokenizerEncoding, String encoder, List<Scored> items) {
    }

    /** One item's score, token count, feature values, strongest drivers and rules applied. */
    public record Scored(JsonNode id, double score, int tokenCount, Map<String, Double> features,
            List<String> drivers, List<String> rules) {
    }

    private final ActiveModel active;
    private final Counter scored;

    public Scoring(ActiveModel active, MeterRegistry meters) {
        this.active = active;
        this.scored = Counter.builder("zerolayer.complexity.scored").register(meters);
    }

    public Batch score(List<ScoreRequest.Item> items) {
        ComplexityScorer scorer = active.scorer();
        TokenCounter counter = TokenCounter.of(scorer.model().tokenizerEncoding());
        List<Scored> results = new ArrayList<>(items.size());
        for (ScoreRequest.Item item : items) {
            ComplexityScore score = scorer.score(item.conversation());
            results.add(new Scored(item.id(), score.score(), counter.count(item.conversation()), score.features(),
                    score.topDrivers(5), score.rules()));
        }
        scored.increment(items.size());
        return new Batch(scorer.modelVersion(), scorer.model().tokenizerEncoding(),
                scorer.model().ngrams() == null ? null : scorer.model().ngrams().encoder(), results);
    }
}
