package dev.zerolayer.fallback.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.fallback.policy.PolicyChange.Kind;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Diffs list each changed leaf once, as a JSON pointer with what happened there. */
class PolicyDiffTest {

    @Test
    void identicalDocumentsHaveNoChanges() {
        assertThat(PolicyDiff.between(PolicyReaderTest.defaults(), PolicyReaderTest.defaults())).isEmpty();
    }

    @Test
    void changedAddedAndRemovedLeavesAreListedByPointer() {
        ObjectNode before = PolicyReaderTest.defaults();
        ObjectNode after = PolicyReaderTest.defaults();
        ((ObjectNode) after.get("thresholds")).put("clusterHealthMin", 0.6);
        ((ArrayNode) after.get("chains").get("opus")).remove(1);
        ((ObjectNode) after.get("standbyClusters")).put("haiku-l4", "haiku/standby");
        ((ObjectNode) after.get("limits")).remove("opus");

        assertThat(PolicyDiff.between(before, after)).containsExactly(
                new PolicyChange("/chains/opus/1", Kind.REMOVED),
                new PolicyChange("/limits/opus", Kind.REMOVED),
                new PolicyChange("/standbyClusters/haiku-l4", Kind.ADDED),
                new PolicyChange("/thresholds/clusterHealthMin", Kind.CHANGED));
    }

    @Test
    void numbersCompareByValueAndKeysAreEscaped() {
        ObjectNode before = PolicyReaderTest.defaults();
        ObjectNode after = PolicyReaderTest.defaults();
        ((ObjectNode) after.get("tierTable").get(0)).put("maxComplexity", new java.math.BigDecimal("0.300"));
        assertThat(PolicyDiff.between(before, after)).isEmpty();

        ((ObjectNode) after.get("apiKeyOverrides")).putObject("a/b~c");
        assertThat(PolicyDiff.between(before, after))
                .containsExactly(new PolicyChange("/apiKeyOverrides/a~1b~0c", Kind.ADDED));
    }
}
