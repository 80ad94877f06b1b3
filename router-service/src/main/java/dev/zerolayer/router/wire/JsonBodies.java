package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.util.ByteArrayBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Writes a JSON object with some top-level fields replaced (in place) or added (at the end), copying nothing else. */
public final class JsonBodies {

    private JsonBodies() {
    }

    /** The object's bytes with each field of {@code overrides} in place of the object's own (or appended). */
    public static byte[] withFields(ObjectNode body, Map<String, JsonNode> overrides) {
        ByteArrayBuilder out = new ByteArrayBuilder(1024);
        try (JsonGenerator generator = EventCodec.mapper().createGenerator(out)) {
            generator.writeStartObject();
            for (Map.Entry<String, JsonNode> field : body.properties()) {
                JsonNode value = overrides.containsKey(field.getKey()) ? overrides.get(field.getKey())
                        : field.getValue();
                generator.writeName(field.getKey());
                generator.writeTree(value);
            }
            for (Map.Entry<String, JsonNode> extra : overrides.entrySet()) {
                if (!body.has(extra.getKey())) {
                    generator.writeName(extra.getKey());
                    generator.writeTree(extra.getValue());
                }
            }
            generator.writeEndObject();
        }
        return out.toByteArray();
    }
}
