package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a submitted policy document into a {@link PolicyDocument} or refuses it: parse (JSON or YAML), schema, per-key
 * overrides completed from the policy's own thresholds and limits, then the semantic checks. Nothing is half-accepted.
 */
public final class PolicyReader {

    /** Like the wire codec, but a field the schema lets an operator leave out takes its default. */
    private static final ObjectMapper LENIENT = EventCodec.mapper().rebuild()
            .disable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES).build();

    private final PolicyParser parser = new PolicyParser();
    private final PolicySchema schema;
    private final PolicySemantics semantics = new PolicySemantics();

    public PolicyReader(PolicySchema schema) {
        this.schema = schema;
    }

    public PolicyDocument read(String text, PolicyFormat format) {
        return read(parser.parse(text, format));
    }

    public PolicyDocument read(JsonNode tree) {
        List<PolicyViolation> structural = schema.validate(tree);
        if (!structural.isEmpty()) {
            throw new PolicyRejectedException(structural);
        }
        PolicyDocument document = convert(completeOverrides((ObjectNode) tree.deepCopy()));
        List<PolicyViolation> semantic = semantics.validate(document);
        if (!semantic.isEmpty()) {
            throw new PolicyRejectedException(semantic);
        }
        return document;
    }

    /** The document as JSON, the form it is published, diffed and served in. */
    public static JsonNode toTree(PolicyDocument document) {
        return EventCodec.mapper().valueToTree(document);
    }

    /** An override's thresholds and per-tier limits are the policy's, with the fields the override sets replaced. */
    private static ObjectNode completeOverrides(ObjectNode tree) {
        JsonNode overrides = tree.get("apiKeyOverrides");
        if (overrides == null || !overrides.isObject()) {
            return tree;
        }
        Set<String> tiers = new LinkedHashSet<>();
        tree.path("tiers").forEach(tier -> tiers.add(tier.path("name").asString()));
        List<PolicyViolation> unknown = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : overrides.properties()) {
            ObjectNode override = (ObjectNode) entry.getValue();
            if (override.get("thresholds") instanceof ObjectNode own) {
                override.set("thresholds", overlay(tree.get("thresholds"), own));
            }
            if (override.get("limits") instanceof ObjectNode limits) {
                for (Map.Entry<String, JsonNode> limit : limits.properties()) {
                    JsonNode base = tree.path("limits").get(limit.getKey());
                    String at = PolicyViolation.path("apiKeyOverrides", entry.getKey(), "limits", limit.getKey());
                    if (!tiers.contains(limit.getKey())) {
                        unknown.add(new PolicyViolation(at, "unknown tier '" + limit.getKey() + "' (tiers: "
                                + String.join(", ", tiers) + ")"));
                    } else if (base == null) {
                        unknown.add(new PolicyViolation(at, "tier '" + limit.getKey()
                                + "' has no limits in the policy to override"));
                    } else if (limit.getValue() instanceof ObjectNode own) {
                        limits.set(limit.getKey(), overlay(base, own));
                    }
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new PolicyRejectedException(unknown);
        }
        return tree;
    }

    private static ObjectNode overlay(JsonNode base, ObjectNode own) {
        ObjectNode merged = base instanceof ObjectNode object ? object.deepCopy() : own.objectNode();
        own.properties().forEach(field -> merged.set(field.getKey(), field.getValue()));
        return merged;
    }

    private static PolicyDocument convert(ObjectNode tree) {
        try {
            return LENIENT.treeToValue(tree, PolicyDocument.class);
        } catch (JacksonException e) {
            String path = e.getPathReference();
            throw new PolicyRejectedException(new PolicyViolation("", "cannot be read as a policy"
                    + (path == null ? "" : " at " + path) + ": " + e.getOriginalMessage()));
        } catch (RuntimeException e) {
            throw new PolicyRejectedException(new PolicyViolation("", "cannot be read as a policy: " + e.getMessage()));
        }
    }
}
