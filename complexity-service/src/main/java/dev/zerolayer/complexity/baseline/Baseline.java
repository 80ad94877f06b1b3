package dev.zerolayer.complexity.baseline;

import dev.zerolayer.complexity.model.ActiveModel;
import dev.zerolayer.complexity.policy.ActivePolicy;
import dev.zerolayer.complexity.scoring.InvalidInputException;
import dev.zerolayer.complexity.scoring.ScoreRequest;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.decision.TierSelection;
import dev.zerolayer.routing.thresholds.ThresholdSearch;
import dev.zerolayer.routing.thresholds.TierMix;
import dev.zerolayer.routing.thresholds.TierThresholds;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SPEC §5 baseline of a prompt set: its score distribution under the active model, the tier mix and each prompt's tier
 * at the policy's current thresholds, optionally the mix at thresholds the caller names, and the thresholds that come
 * closest to a target tier mix.
 */
public class Baseline {

    static final int HISTOGRAM_BINS = 10;
    static final double MIX_SUM_TOLERANCE = 0.01;

    private final ActiveModel active;
    private final ActivePolicy policy;
    private final int maxItems;

    public Baseline(ActiveModel active, ActivePolicy policy, int maxItems) {
        this.active = active;
        this.policy = policy;
        this.maxItems = maxItems;
    }

    public Map<String, Object> run(ObjectNode body) {
        List<ScoreRequest.Item> items = items(body);
        PolicyDocument document = policy.document();
        Map<String, Double> evaluate = body.has("thresholds") && !body.get("thresholds").isNull()
                ? TierTables.checked(document, numbers(body.get("thresholds"), "thresholds"), "thresholds") : null;
        Map<String, Double> target = body.has("targetMix") && !body.get("targetMix").isNull()
                ? targetMix(document, body.get("targetMix")) : null;

        ComplexityScorer scorer = active.scorer();
        TokenCounter counter = TokenCounter.of(scorer.model().tokenizerEncoding());
        int[] tokens = new int[items.size()];
        double[] scores = new double[items.size()];
        for (int i = 0; i < items.size(); i++) {
            Conversation conversation = items.get(i).conversation();
            tokens[i] = counter.count(conversation);
            scores[i] = scorer.scoreValue(conversation);
        }

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("modelVersion", scorer.modelVersion());
        result.put("policyVersion", policy.version());
        result.put("count", items.size());
        result.put("distribution", ScoreDistribution.of(scores, HISTOGRAM_BINS));
        result.put("current", setting(document, TierThresholds.thresholds(document), tokens, scores));
        if (evaluate != null) {
            result.put("evaluated", setting(document, evaluate, tokens, scores));
        }
        if (target != null) {
            ThresholdSearch.Result found = ThresholdSearch.search(document, tokens, scores, target);
            Map<String, Object> recommended = new LinkedHashMap<>();
            recommended.put("targetMix", target);
            recommended.put("thresholds", found.thresholds());
            recommended.put("tierMix", found.mix());
            recommended.put("maxDeviation", found.maxDeviation());
            recommended.put("tierTable", TierThresholds.withThresholds(document, found.thresholds()).tierTable());
            result.put("recommended", recommended);
        }
        String[] tiers = TierMix.tiers(document, tokens, scores);
        List<Map<String, Object>> perItem = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", items.get(i).id());
            item.put("score", scores[i]);
            item.put("tokenCount", tokens[i]);
            item.put("tier", tiers[i]);
            perItem.add(item);
        }
        result.put("items", perItem);
        return result;
    }

    private static Map<String, Object> setting(PolicyDocument document, Map<String, Double> thresholds, int[] tokens,
            double[] scores) {
        Map<String, Object> setting = new LinkedHashMap<>();
        setting.put("thresholds", thresholds);
        setting.put("tierMix", TierMix.of(TierThresholds.withThresholds(document, thresholds), tokens, scores));
        return setting;
    }

    /** {@code items} as for scoring, or {@code prompts}: a list of user prompts (ids are their indexes). */
    private List<ScoreRequest.Item> items(ObjectNode body) {
        JsonNode prompts = body.get("prompts");
        if (prompts == null || prompts.isNull()) {
            if (body.get("items") == null) {
                throw new InvalidInputException("items: required (or prompts: a list of strings)");
            }
            return ScoreRequest.items(body, maxItems);
        }
        if (body.get("items") != null) {
            throw new InvalidInputException("prompts: give either items or prompts, not both");
        }
        if (!prompts.isArray() || prompts.isEmpty()) {
            throw new InvalidInputException("prompts: must be a non-empty list of strings");
        }
        if (prompts.size() > maxItems) {
            throw new InvalidInputException("prompts: at most " + maxItems + " prompts per request, got "
                    + prompts.size());
        }
        List<ScoreRequest.Item> items = new ArrayList<>(prompts.size());
        for (int i = 0; i < prompts.size(); i++) {
            if (!prompts.get(i).isString()) {
                throw new InvalidInputException("prompts[" + i + "]: must be a string");
            }
            items.add(new ScoreRequest.Item(IntNode.valueOf(i), Conversation.ofUser(prompts.get(i).stringValue())));
        }
        return items;
    }

    static Map<String, Double> targetMix(PolicyDocument document, JsonNode node) {
        Map<String, Double> mix = numbers(node, "targetMix");
        List<String> tiers = TierSelection.tierOrder(document);
        if (mix.isEmpty()) {
            throw new InvalidInputException("targetMix: name at least one tier of " + tiers);
        }
        double sum = 0;
        for (Map.Entry<String, Double> share : mix.entrySet()) {
            if (!tiers.contains(share.getKey())) {
                throw new InvalidInputException("targetMix." + share.getKey() + ": unknown tier; tiers: " + tiers);
            }
            if (!Double.isFinite(share.getValue()) || share.getValue() < 0 || share.getValue() > 1) {
                throw new InvalidInputException("targetMix." + share.getKey() + ": must be a share in [0,1]");
            }
            sum += share.getValue();
        }
        if (Math.abs(sum - 1.0) > MIX_SUM_TOLERANCE) {
            throw new InvalidInputException("targetMix: shares must sum to 1, they sum to " + sum);
        }
        Map<String, Double> ordered = new LinkedHashMap<>();
        tiers.forEach(tier -> ordered.put(tier, mix.getOrDefault(tier, 0.0)));
        return ordered;
    }

    private static Map<String, Double> numbers(JsonNode node, String field) {
        if (!node.isObject()) {
            throw new InvalidInputException(field + ": must be an object of tier to number");
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isNumber()) {
                throw new InvalidInputException(field + "." + entry.getKey() + ": must be a number");
            }
            values.put(entry.getKey(), entry.getValue().asDouble());
        }
        return values;
    }
}
