package dev.zerolayer.contracts.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A candidate's terms: a map in the scorers' order over two arrays, equal to and written as any other map. */
class ScoreTermsTest {

    private static final String[] NAMES = {"queue", "prefix", "health"};

    @Test
    void readsInTheScorersOrderAndEqualsAnOrdinaryMap() {
        ScoreTerms terms = ScoreTerms.of(NAMES, new double[] {0.5, 0.25, 1.0});
        Map<String, Double> same = new LinkedHashMap<>();
        same.put("queue", 0.5);
        same.put("prefix", 0.25);
        same.put("health", 1.0);

        assertThat(terms).containsExactly(Map.entry("queue", 0.5), Map.entry("prefix", 0.25),
                Map.entry("health", 1.0));
        assertThat(terms).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(terms.get("prefix")).isEqualTo(0.25);
        assertThat(terms.get("missing")).isNull();
        assertThat(terms.names()).containsExactly(NAMES);
        assertThat(terms.toString()).isEqualTo("{queue=0.5, prefix=0.25, health=1.0}");
    }

    @Test
    void refusesChangesAndMismatchedArrays() {
        ScoreTerms terms = ScoreTerms.of(NAMES, new double[] {0.5, 0.25, 1.0});

        assertThatThrownBy(() -> terms.put("queue", 0.1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> terms.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ScoreTerms.of(NAMES, new double[] {0.5}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 names for 1 values");
        assertThatThrownBy(() -> ScoreTerms.of(new String[] {"queue", "queue"}, new double[] {0.5, 0.5}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queue named twice");
    }

    @Test
    void namesCheckedOnceServeEveryCandidateAndAreNotChangedByTheirCaller() {
        String[] given = {"queue", "prefix"};
        ScoreTerms.Names names = ScoreTerms.keys(given);
        given[0] = "changed";

        ScoreTerms first = names.terms(new double[] {0.1, 0.2});
        ScoreTerms second = names.terms(new double[] {0.3, 0.4});

        assertThat(first.names()).containsExactly("queue", "prefix");
        assertThat(second).containsEntry("queue", 0.3).containsEntry("prefix", 0.4);
        assertThatThrownBy(() -> names.terms(new double[] {0.1})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCandidateKeepsTheTermsItIsGivenAndLeavesOutEntriesWithoutAValue() {
        ScoreTerms terms = ScoreTerms.of(NAMES, new double[] {0.5, 0.25, 1.0});
        Map<String, Double> withNull = new HashMap<>();
        withNull.put("queue", 0.5);
        withNull.put("prefix", null);

        CandidateScore given = new CandidateScore("n1", "sonnet", "c1", null, 0.6, terms, terms, false);
        CandidateScore read = new CandidateScore("n1", "sonnet", "c1", null, 0.6, withNull, null, null);

        assertThat(given.terms()).isSameAs(terms);
        assertThat(read.terms()).containsExactly(Map.entry("queue", 0.5));
        assertThat(read.weightedTerms()).isEmpty();
    }

    @Test
    void encodesAsAJsonObjectInOrderAndDecodesToAnEqualRecord() {
        CandidateScore score = new CandidateScore("n1", "sonnet", "c1", null, 0.6,
                ScoreTerms.of(NAMES, new double[] {0.5, 0.25, 1.0}),
                ScoreTerms.of(NAMES, new double[] {0.25, 0.125, 0.25}), true);

        String json = EventCodec.mapper().writeValueAsString(score);
        CandidateScore back = EventCodec.mapper().readValue(json, CandidateScore.class);

        assertThat(json).contains("\"terms\":{\"queue\":0.5,\"prefix\":0.25,\"health\":1.0}");
        assertThat(back).isEqualTo(score);
        assertThat(back.terms().keySet()).containsExactly(NAMES);
    }

    @Test
    void readsAsAMapOfTermsWouldAndRefusesWhatAMapWould() {
        CandidateScore read = EventCodec.mapper().readValue("""
                {"node":"n1","tier":"sonnet","cluster":"c1","excludedBecause":null,"score":0.6,
                 "terms":{"queue":0.5,"prefix":null,"health":1,"queue":0.75,"load":"0.125"},
                 "weightedTerms":{}}""", CandidateScore.class);

        assertThat(read.terms()).isInstanceOf(ScoreTerms.class)
                .containsExactly(Map.entry("queue", 0.75), Map.entry("health", 1.0), Map.entry("load", 0.125));
        assertThat(read.weightedTerms()).isEmpty();
        assertThat(read.breakerOpen()).isNull();
        assertThatThrownBy(() -> EventCodec.mapper().readValue("""
                {"node":"n1","tier":"sonnet","cluster":"c1","excludedBecause":null,"score":0.6,
                 "terms":[0.5],"weightedTerms":{}}""", CandidateScore.class))
                .isInstanceOf(tools.jackson.core.JacksonException.class);
        assertThatThrownBy(() -> EventCodec.mapper().readValue("""
                {"node":"n1","tier":"sonnet","cluster":"c1","excludedBecause":null,"score":0.6,
                 "terms":{"queue":"high"},"weightedTerms":{}}""", CandidateScore.class))
                .isInstanceOf(tools.jackson.core.JacksonException.class);
    }

    @Test
    void readsMoreTermsThanItFirstMakesRoomForInTheirOrder() {
        StringBuilder json = new StringBuilder("{");
        double[] values = new double[20];
        String[] names = new String[20];
        for (int i = 0; i < 20; i++) {
            names[i] = "scorer" + i;
            values[i] = i / 20.0;
            json.append(i == 0 ? "" : ",").append('"').append(names[i]).append("\":").append(values[i]);
        }
        json.append('}');

        CandidateScore read = EventCodec.mapper().readValue("{\"node\":\"n1\",\"tier\":\"t\",\"cluster\":\"c\","
                + "\"excludedBecause\":null,\"score\":0.6,\"terms\":" + json + ",\"weightedTerms\":null}",
                CandidateScore.class);

        assertThat(read.terms()).isEqualTo(ScoreTerms.of(names, values));
        assertThat(((ScoreTerms) read.terms()).names()).containsExactly(names);
        assertThat(read.weightedTerms()).isEmpty();
    }
}
