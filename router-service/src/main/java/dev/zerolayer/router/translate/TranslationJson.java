package dev.zerolayer.router.translate;

import dev.zerolayer.contracts.codec.EventCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON pieces every request translation writes: a field copied under another name, a Chat Completions function tool. */
final class TranslationJson {

    private TranslationJson() {
    }

    static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }

    /** Copies a field that is present and not null, under the name {@code as}. */
    static void copy(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null && !value.isNull()) {
            to.set(as, value.deepCopy());
        }
    }

    /** A Chat Completions function tool from its name, description, JSON schema (an empty object's when none) and strictness. */
    static void functionTool(ArrayNode tools, JsonNode tool, String schemaField) {
        ObjectNode function = tools.addObject().put("type", "function").putObject("function");
        function.put("name", tool.path("name").asString(""));
        if (tool.path("description").isString()) {
            function.put("description", tool.get("description").stringValue());
        }
        function.set("parameters", tool.path(schemaField).isObject() ? tool.get(schemaField).deepCopy()
                : obj().put("type", "object"));
        if (tool.path("strict").isBoolean()) {
            function.put("strict", tool.get("strict").booleanValue());
        }
    }
}
