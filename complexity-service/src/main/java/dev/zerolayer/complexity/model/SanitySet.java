package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A small labelled set of prompts shipped with the service ({@value #RESOURCE}): each either "weak" (a small model
 * suffices) or "strong" (needs the strong model); a model's AUC on it tells whether it ranks better than random.
 */
public final class SanitySet {

    public static final String RESOURCE = "/complexity-sanity-set.json";

    private final List<Conversation> prompts;
    private final boolean[] needsStrong;

    SanitySet(List<Conversation> prompts, boolean[] needsStrong) {
        if (prompts.size() != needsStrong.length) {
            throw new IllegalArgumentException("prompts and labels differ in length");
        }
        this.prompts = List.copyOf(prompts);
        this.needsStrong = needsStrong.clone();
    }

    /** The built-in set. */
    public static SanitySet builtIn() {
        try (InputStream in = SanitySet.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing sanity set " + RESOURCE);
            }
            JsonNode root = EventCodec.mapper().readTree(in.readAllBytes());
            List<Conversation> prompts = new ArrayList<>();
            List<Boolean> labels = new ArrayList<>();
            for (JsonNode item : root.get("items")) {
                String label = item.get("label").stringValue();
                if (!label.equals("weak") && !label.equals("strong")) {
                    throw new IllegalStateException("sanity set label must be weak or strong, was " + label);
                }
                JsonNode system = item.get("system");
                prompts.add(Conversation.of(system == null ? "" : system.stringValue(), item.get("prompt").stringValue()));
                labels.add(label.equals("strong"));
            }
            boolean[] strong = new boolean[labels.size()];
            for (int i = 0; i < strong.length; i++) {
                strong[i] = labels.get(i);
            }
            return new SanitySet(prompts, strong);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    public int size() {
        return prompts.size();
    }

    public int strongCount() {
        int count = 0;
        for (boolean strong : needsStrong) {
            count += strong ? 1 : 0;
        }
        return count;
    }

    /** The AUC of a scorer for "needs the strong model" on this set. */
    public double auc(ComplexityScorer scorer) {
        double[] scores = new double[prompts.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = scorer.score(prompts.get(i)).score();
        }
        return Auc.of(scores, needsStrong);
    }
}
