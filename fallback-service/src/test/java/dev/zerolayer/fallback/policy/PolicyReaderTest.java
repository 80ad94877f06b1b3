package dev.zerolayer.fallback.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Schema and semantic validation: each bad input is refused naming its field; the default and good edits pass. */
class PolicyReaderTest {

    private static final PolicyReader READER = new PolicyReader(new PolicySchema());

    static ObjectNode defaults() {
        return (ObjectNode) PolicyReader.toTree(PolicyDocument.defaults());
    }

    private static List<PolicyViolation> violations(Consumer<ObjectNode> edit) {
        ObjectNode tree = defaults();
        edit.accept(tree);
        try {
            READER.read(tree.toString(), PolicyFormat.JSON);
        } catch (PolicyRejectedException e) {
            return e.violations();
        }
        throw new AssertionError("the edited policy was accepted");
    }

    @Test
    void theBuiltInDefaultIsValidAsJsonAndAsYaml() {
        assertThat(READER.read(defaults().toString(), PolicyFormat.JSON)).isEqualTo(PolicyDocument.defaults());
        String yaml = YAMLMapper.builder().build().writeValueAsString(defaults());
        assertThat(READER.read(yaml, PolicyFormat.YAML)).isEqualTo(PolicyDocument.defaults());
    }

    @Test
    void optionalSectionsTakeTheirDefaultsAndYamlOffIsTheModeNotABoolean() {
        ObjectNode tree = defaults();
        tree.remove(List.of("standbyClusters", "apiKeyOverrides", "alerting", "refusalFallback"));
        PolicyDocument read = READER.read(tree.toString(), PolicyFormat.JSON);
        assertThat(read.alerting()).isEqualTo(PolicyDocument.defaults().alerting());
        assertThat(read.standbyClusters()).isEmpty();

        String yaml = YAMLMapper.builder().build().writeValueAsString(defaults())
                .replace("mode: \"off\"", "mode: off").replace("mode: off", "mode: annotate");
        assertThat(yaml).contains("mode: annotate");
        assertThat(READER.read(yaml, PolicyFormat.YAML).refusalFallback().mode())
                .isEqualTo(RefusalFallback.Mode.ANNOTATE);
        String unquotedOff = YAMLMapper.builder().build().writeValueAsString(defaults())
                .replaceAll("mode: .*", "mode: off");
        assertThat(READER.read(unquotedOff, PolicyFormat.YAML).refusalFallback().mode())
                .isEqualTo(RefusalFallback.Mode.OFF);
    }

    @Test
    void invalidYamlIsRefusedWithItsLineAndColumnAndNoContent() {
        String yaml = "tiers:\n  - name: haiku\n    clusters: [haiku-l4\nthresholds: {";
        assertThatThrownBy(() -> READER.read(yaml, PolicyFormat.YAML))
                .isInstanceOf(PolicyRejectedException.class)
                .hasMessageContaining("invalid YAML at line")
                .hasMessageNotContaining("haiku-l4");
    }

    @Test
    void invalidJsonDuplicateKeysAndEmptyBodiesAreRefused() {
        assertThatThrownBy(() -> READER.read("{\"tiers\": [", PolicyFormat.JSON))
                .isInstanceOf(PolicyRejectedException.class).hasMessageContaining("invalid JSON");
        assertThatThrownBy(() -> READER.read("{\"tiers\": [], \"tiers\": []}", PolicyFormat.JSON))
                .isInstanceOf(PolicyRejectedException.class).hasMessageContaining("tiers");
        assertThatThrownBy(() -> READER.read("tiers: []\ntiers: []\n", PolicyFormat.YAML))
                .isInstanceOf(PolicyRejectedException.class).hasMessageContaining("tiers");
        assertThatThrownBy(() -> READER.read("  ", PolicyFormat.YAML))
                .isInstanceOf(PolicyRejectedException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> READER.read("just a string", PolicyFormat.YAML))
                .isInstanceOf(PolicyRejectedException.class);
    }

    @Test
    void schemaViolationsNameTheFieldAsAJsonPointer() {
        assertThat(violations(t -> ((ObjectNode) t.get("thresholds")).put("clusterHealthMin", 1.5)))
                .extracting(PolicyViolation::pointer).containsExactly("/thresholds/clusterHealthMin");
        assertThat(violations(t -> ((ObjectNode) t.get("thresholds")).remove("highComplexity")))
                .extracting(PolicyViolation::pointer).containsExactly("/thresholds/highComplexity");
        assertThat(violations(t -> t.put("surprise", 1)))
                .extracting(PolicyViolation::pointer).containsExactly("/surprise");
        assertThat(violations(t -> ((ObjectNode) t.get("tierTable").get(0)).put("maxTokens", "many")))
                .extracting(PolicyViolation::pointer).containsExactly("/tierTable/0/maxTokens");
        assertThat(violations(t -> ((ObjectNode) t.get("refusalFallback")).put("mode", "sometimes")))
                .extracting(PolicyViolation::pointer).containsExactly("/refusalFallback/mode");
        assertThat(violations(t -> ((ObjectNode) t.get("resilience")).put("hopLimit", -1)))
                .extracting(PolicyViolation::pointer).containsExactly("/resilience/hopLimit");
        assertThat(violations(t -> ((ObjectNode) t.get("alerting")).put("fallbackRateThreshold", 1.2)))
                .extracting(PolicyViolation::pointer).containsExactly("/alerting/fallbackRateThreshold");
    }

    @Test
    void nodeScoringNamesPluginsTheRouterHasWithUsableWeightsAndIsOverridablePerKey() {
        ObjectNode good = defaults();
        ((ObjectNode) good.get("scoring").get("weights")).put("cost", 0.2).put("adapter_affinity", 0.3);
        good.put("peakShapingTier", "opus");
        PolicyDocument read = READER.read(good.toString(), PolicyFormat.JSON);
        assertThat(read.scoring().weight("cost")).isEqualTo(0.2);
        assertThat(read.shapedTier()).isEqualTo("opus");

        assertThat(violations(t -> ((ObjectNode) t.get("scoring").get("weights")).put("gpu_vibes", 0.5)))
                .anyMatch(v -> v.pointer().equals("/scoring") && v.message().contains("unknown scorer 'gpu_vibes'"));
        assertThat(violations(t -> ((ObjectNode) t.get("scoring").get("weights")).put("load", -0.5)))
                .anyMatch(v -> v.pointer().startsWith("/scoring/weights/load"));
        assertThat(violations(t -> ((ArrayNode) t.get("scoring").get("filters")).add("no_such_filter")))
                .anyMatch(v -> v.message().contains("unknown filter 'no_such_filter'"));
        assertThat(violations(t -> ((ObjectNode) t.get("scoring")).put("picker", "random")))
                .anyMatch(v -> v.message().contains("unknown picker 'random'"));
        assertThat(violations(t -> t.put("peakShapingTier", "mythos")))
                .anyMatch(v -> v.pointer().equals("/peakShapingTier") && v.message().contains("unknown tier"));
        assertThat(violations(t -> t.put("peakShapingTier", "haiku")))
                .anyMatch(v -> v.pointer().equals("/peakShapingTier") && v.message().contains("no tier below"));
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("key-1").putObject("scoring")
                .putObject("weights").put("nope", 1.0)))
                .anyMatch(v -> v.pointer().equals("/apiKeyOverrides/key-1/scoring"));
    }

    @Test
    void ttftSlosAndCapacityDowngradeAreReadAndCheckedAndOffWhenLeftOut() {
        assertThat(READER.read(defaults().toString(), PolicyFormat.JSON).scoring().capacityDowngrade().enabled())
                .isFalse();
        ObjectNode good = defaults();
        ObjectNode scoring = (ObjectNode) good.get("scoring");
        ((ObjectNode) scoring.get("weights")).put("predicted_ttft", 1.0);
        ((ArrayNode) scoring.get("filters")).add("ttft_slo");
        scoring.putObject("ttftSloMs").put("sonnet", 800).put("opus", 1500);
        scoring.put("ttftSloMargin", 0.5);
        scoring.putObject("capacityDowngrade").put("enabled", true).put("complexityHigh", 0.7);
        PolicyDocument read = READER.read(good.toString(), PolicyFormat.JSON);
        assertThat(read.scoring().ttftSlo("sonnet")).isEqualTo(800.0);
        assertThat(read.scoring().ttftSlo("haiku")).isNaN();
        assertThat(read.scoring().ttftSloMargin()).isEqualTo(0.5);
        assertThat(read.scoring().capacityDowngrade().enabled()).isTrue();
        assertThat(read.scoring().capacityDowngrade().complexityHigh()).isEqualTo(0.7);
        assertThat(read.scoring().capacityDowngrade().complexityLow()).isEqualTo(0.0);

        assertThat(violations(t -> ((ObjectNode) t.get("scoring")).putObject("ttftSloMs").put("mythos", 500)))
                .anyMatch(v -> v.pointer().equals("/scoring/ttftSloMs/mythos") && v.message().contains("unknown tier"));
        assertThat(violations(t -> ((ObjectNode) t.get("scoring")).putObject("ttftSloMs").put("haiku", 0)))
                .anyMatch(v -> v.pointer().startsWith("/scoring/ttftSloMs/haiku"));
        assertThat(violations(t -> ((ObjectNode) t.get("scoring")).putObject("capacityDowngrade")
                .put("complexityLow", 0.8).put("complexityHigh", 0.2)))
                .anyMatch(v -> v.message().contains("complexity band"));
        assertThat(violations(t -> ((ObjectNode) t.get("scoring")).putObject("capacityDowngrade").put("often", true)))
                .anyMatch(v -> v.pointer().startsWith("/scoring/capacityDowngrade"));
    }

    @Test
    void aCycleInAChainIsRefused() {
        List<PolicyViolation> selfLoop = violations(t -> ((ArrayNode) t.get("chains").get("opus")).add("opus"));
        assertThat(selfLoop).extracting(PolicyViolation::pointer).containsExactly("/chains/opus/2");
        assertThat(selfLoop.get(0).message()).contains("cycle").contains("opus -> sonnet -> haiku -> opus");

        List<PolicyViolation> repeat = violations(t -> ((ArrayNode) t.get("chains").get("opus")).add("sonnet"));
        assertThat(repeat).extracting(PolicyViolation::pointer).containsExactly("/chains/opus/2");
    }

    @Test
    void unknownTiersAndClustersAreRefused() {
        assertThat(violations(t -> ((ArrayNode) t.get("chains").get("opus")).add("mythos")))
                .extracting(PolicyViolation::toString).containsExactly("/chains/opus/2: unknown tier 'mythos' "
                        + "(tiers: haiku, sonnet, opus)");
        assertThat(violations(t -> ((ObjectNode) t.get("tierTable").get(0)).put("tier", "mythos")))
                .extracting(PolicyViolation::pointer).containsExactly("/tierTable/0/tier");
        assertThat(violations(t -> ((ObjectNode) t.get("standbyClusters")).put("nowhere", "x-standby")))
                .extracting(PolicyViolation::pointer).containsExactly("/standbyClusters/nowhere");
        assertThat(violations(t -> ((ObjectNode) t.get("limits")).remove("opus")))
                .extracting(PolicyViolation::pointer).containsExactly("/limits/opus");
    }

    @Test
    void aTierWithNoReachableClusterIsRefused() {
        List<PolicyViolation> found = violations(t -> ((ArrayNode) t.get("tiers").get(2).get("clusters"))
                .removeAll());
        assertThat(found).extracting(PolicyViolation::pointer).containsExactly("/tiers/2/clusters");
        assertThat(found.get(0).message()).contains("'opus' has no reachable cluster");

        assertThat(violations(t -> ((ArrayNode) t.get("tiers").get(2).get("clusters")).add("sonnet-a100-40g")))
                .extracting(PolicyViolation::pointer).containsExactly("/tiers/2/clusters/1");
    }

    @Test
    void thresholdsOutOfOrderAreRefused() {
        assertThat(violations(t -> ((ObjectNode) t.get("thresholds")).put("peakBandLow", 0.6)))
                .extracting(PolicyViolation::pointer).containsExactly("/thresholds/peakBandLow");
        assertThat(violations(t -> ((ObjectNode) t.get("thresholds")).put("smRecoverBelow", 0.96)))
                .extracting(PolicyViolation::pointer).containsExactly("/thresholds/smRecoverBelow");
        assertThat(violations(t -> ((ObjectNode) t.get("tierTable").get(1)).put("maxTokens", 256)))
                .extracting(PolicyViolation::pointer).containsExactly("/tierTable/1/maxTokens");
        assertThat(violations(t -> ((ObjectNode) t.get("limits").get("haiku")).put("ttfbLimitMs", 40_000)))
                .extracting(PolicyViolation::pointer).containsExactly("/limits/haiku/ttfbLimitMs");
    }

    @Test
    void overridesNameKnownFieldsAndTiersAndInheritWhatTheyLeaveOut() {
        ObjectNode tree = defaults();
        ObjectNode override = ((ObjectNode) tree.get("apiKeyOverrides")).putObject("k-1234");
        override.putObject("thresholds").put("clusterHealthMin", 0.5);
        override.putObject("limits").putObject("opus").put("deadlineMs", 200_000);
        override.put("requestsPerSecond", 7);
        PolicyDocument read = READER.read(tree.toString(), PolicyFormat.JSON);
        var parsed = read.apiKeyOverrides().get("k-1234");
        assertThat(parsed.thresholds().clusterHealthMin()).isEqualTo(0.5);
        assertThat(parsed.thresholds().highComplexity()).isEqualTo(0.95);
        assertThat(parsed.limits().get("opus").deadlineMs()).isEqualTo(200_000);
        assertThat(parsed.limits().get("opus").ttfbLimitMs()).isEqualTo(8_000);
        assertThat(parsed.requestsPerSecond()).isEqualTo(7);

        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").putObject("thresholds")
                .put("bogus", 1))).extracting(PolicyViolation::pointer)
                .containsExactly("/apiKeyOverrides/k-1/thresholds/bogus");
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").put("tiers", 1)))
                .extracting(PolicyViolation::pointer).containsExactly("/apiKeyOverrides/k-1/tiers");
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").putObject("limits")
                .putObject("mythos").put("deadlineMs", 5)))
                .extracting(PolicyViolation::pointer).containsExactly("/apiKeyOverrides/k-1/limits/mythos");
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").putObject("thresholds")
                .put("peakBandLow", 0.9))).extracting(PolicyViolation::pointer)
                .containsExactly("/apiKeyOverrides/k-1/thresholds/peakBandLow");
    }

    @Test
    void anOverridesOwnTierTableChainsHopLimitAndRefusalHandlingAreReadAndChecked() {
        ObjectNode tree = defaults();
        ObjectNode override = ((ObjectNode) tree.get("apiKeyOverrides")).putObject("k-cheap");
        override.putArray("tierTable").addObject().put("maxTokens", 2147483647).put("maxComplexity", 1.0)
                .put("tier", "haiku");
        override.putObject("chains").putArray("haiku");
        override.put("hopLimit", 1);
        override.putObject("refusalFallback").put("mode", "annotate");
        PolicyDocument read = READER.read(tree.toString(), PolicyFormat.JSON);
        var parsed = read.apiKeyOverrides().get("k-cheap");
        assertThat(parsed.tierTable()).hasSize(1);
        assertThat(parsed.chains()).containsOnlyKeys("haiku");
        assertThat(parsed.hopLimit()).isEqualTo(1);
        assertThat(read.forApiKey("k-cheap").tierTable().get(0).tier()).isEqualTo("haiku");

        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").putObject("chains")
                .putArray("haiku").add("sonnet").add("haiku"))).extracting(PolicyViolation::pointer)
                .containsExactly("/apiKeyOverrides/k-1/chains/haiku/1");
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").putArray("tierTable")
                .addObject().put("maxTokens", 10).put("maxComplexity", 1.0).put("tier", "mythos")))
                .extracting(PolicyViolation::pointer).containsExactly("/apiKeyOverrides/k-1/tierTable/0/tier");
        assertThat(violations(t -> ((ObjectNode) t.get("apiKeyOverrides")).putObject("k-1").put("hopLimit", 99)))
                .extracting(PolicyViolation::pointer).containsExactly("/apiKeyOverrides/k-1/hopLimit");
    }

    @Test
    void everyViolationIsReportedAtOnce() {
        List<PolicyViolation> found = violations(t -> {
            ((ArrayNode) t.get("chains").get("opus")).add("opus");
            ((ObjectNode) t.get("thresholds")).put("peakBandLow", 0.6);
        });
        assertThat(found).extracting(PolicyViolation::pointer)
                .containsExactlyInAnyOrder("/chains/opus/2", "/thresholds/peakBandLow");
        JsonNode untouched = defaults();
        assertThat(untouched.get("chains").get("opus")).hasSize(2);
    }
}
