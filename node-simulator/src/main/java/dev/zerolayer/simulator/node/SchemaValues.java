package dev.zerolayer.simulator.node;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.SplittableRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A value that validates against a JSON schema, drawn deterministically from a seeded generator: objects with their
 * required properties, strings within their length (from a given list of quoted values first, in order, then words),
 * numbers within their bounds, enums and consts as given, arrays of their minimum size, the first branch of
 * {@code anyOf} / {@code oneOf}, {@code allOf} merged, local {@code $ref}s followed. Keywords it does not know (a
 * {@code pattern}) are not honoured.
 */
final class SchemaValues {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 12;

    private final JsonNode root;
    private final SplittableRandom random;
    private final Deque<String> quoted;

    /**
     * @param root   the whole schema (for {@code $ref})
     * @param quoted string values to use first, in order (the prompt's backquoted words)
     */
    SchemaValues(JsonNode root, SplittableRandom random, Iterable<String> quoted) {
        this.root = root;
        this.random = random;
        this.quoted = new ArrayDeque<>();
        quoted.forEach(this.quoted::add);
    }

    JsonNode value() {
        JsonNode value = value(root, 0);
        return value.isObject() ? value : NODES.objectNode();
    }

    private JsonNode value(JsonNode schema, int depth) {
        if (schema == null || !schema.isObject() || depth > MAX_DEPTH) {
            return NODES.objectNode();
        }
        if (schema.has("$ref")) {
            return value(resolve(schema.get("$ref").asString("")), depth + 1);
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.path("enum").isArray() && !schema.get("enum").isEmpty()) {
            return schema.get("enum").get(0);
        }
        for (String branch : new String[] {"anyOf", "oneOf"}) {
            if (schema.path(branch).isArray() && !schema.get(branch).isEmpty()) {
                return value(schema.get(branch).get(0), depth + 1);
            }
        }
        if (schema.path("allOf").isArray()) {
            ObjectNode merged = NODES.objectNode();
            for (JsonNode part : schema.get("allOf")) {
                JsonNode value = value(part, depth + 1);
                if (value.isObject()) {
                    merged.setAll((ObjectNode) value);
                }
            }
            return merged;
        }
        String type = type(schema);
        return switch (type) {
            case "string" -> NODES.stringNode(string(schema));
            case "integer" -> NODES.numberNode(integer(schema));
            case "number" -> NODES.numberNode(integer(schema));
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "null" -> NODES.nullNode();
            case "array" -> array(schema, depth);
            default -> object(schema, depth);
        };
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isString()) {
            return type.stringValue();
        }
        if (type != null && type.isArray()) {
            for (JsonNode candidate : type) {
                if (!candidate.asString("").equals("null")) {
                    return candidate.asString("");
                }
            }
            return "null";
        }
        if (schema.has("properties")) {
            return "object";
        }
        if (schema.has("items")) {
            return "array";
        }
        return "object";
    }

    private ObjectNode object(JsonNode schema, int depth) {
        ObjectNode out = NODES.objectNode();
        JsonNode properties = schema.path("properties");
        for (JsonNode required : schema.path("required")) {
            String name = required.asString("");
            out.set(name, value(properties.get(name), depth + 1));
        }
        return out;
    }

    private ArrayNode array(JsonNode schema, int depth) {
        ArrayNode out = NODES.arrayNode();
        int size = Math.max(schema.path("minItems").asInt(0), 1);
        if (schema.has("maxItems")) {
            size = Math.min(size, schema.get("maxItems").asInt(size));
        }
        for (int i = 0; i < size; i++) {
            out.add(value(schema.get("items"), depth + 1));
        }
        return out;
    }

    private String string(JsonNode schema) {
        int min = schema.path("minLength").asInt(0);
        int max = schema.path("maxLength").asInt(Integer.MAX_VALUE);
        Iterator<String> candidates = quoted.iterator();
        while (candidates.hasNext()) {
            String candidate = candidates.next();
            if (candidate.length() >= min && candidate.length() <= max) {
                candidates.remove();
                return candidate;
            }
        }
        String format = schema.path("format").asString("");
        String value = switch (format) {
            case "date-time" -> "2026-01-01T00:00:00Z";
            case "date" -> "2026-01-01";
            case "email" -> "user@example.com";
            case "uri", "url" -> "https://example.com/";
            case "uuid" -> "00000000-0000-4000-8000-000000000000";
            default -> TextGenerator.VOCABULARY.get(random.nextInt(TextGenerator.VOCABULARY.size()));
        };
        StringBuilder padded = new StringBuilder(value);
        while (padded.length() < min) {
            padded.append('x');
        }
        return padded.length() > max ? padded.substring(0, Math.max(min, max)) : padded.toString();
    }

    private long integer(JsonNode schema) {
        double low = schema.has("minimum") ? schema.get("minimum").asDouble()
                : schema.has("exclusiveMinimum") && schema.get("exclusiveMinimum").isNumber()
                        ? Math.floor(schema.get("exclusiveMinimum").asDouble()) + 1 : 1;
        double high = schema.has("maximum") ? schema.get("maximum").asDouble()
                : schema.has("exclusiveMaximum") && schema.get("exclusiveMaximum").isNumber()
                        ? Math.ceil(schema.get("exclusiveMaximum").asDouble()) - 1 : low + 9;
        long from = (long) Math.ceil(low);
        long to = (long) Math.floor(Math.min(high, from + 9));
        return to <= from ? from : from + random.nextLong(to - from + 1);
    }

    /** A local reference: {@code #}, {@code #/$defs/X}, {@code #/definitions/X} (any JSON pointer into the root). */
    private JsonNode resolve(String ref) {
        if (!ref.startsWith("#")) {
            return null;
        }
        JsonNode node = root;
        for (String part : ref.substring(1).split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            node = node.path(part.replace("~1", "/").replace("~0", "~"));
        }
        return node.isMissingNode() ? null : node;
    }
}
