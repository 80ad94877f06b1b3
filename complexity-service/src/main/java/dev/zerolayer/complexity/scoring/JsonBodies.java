package dev.zerolayer.complexity.scoring;

import dev.zerolayer.contracts.codec.EventCodec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A request body is one JSON object in strict UTF-8; anything else is refused without quoting it. */
public final class JsonBodies {

    private JsonBodies() {
    }

    public static ObjectNode object(byte[] raw) {
        if (raw == null || raw.length == 0) {
            throw new InvalidInputException("body: empty; expected a JSON object");
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw));
        } catch (CharacterCodingException e) {
            throw new InvalidInputException("body: not valid UTF-8");
        }
        JsonNode node;
        try {
            node = EventCodec.mapper().readTree(raw);
        } catch (JacksonException e) {
            throw new InvalidInputException("body: not valid JSON" + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
        if (node == null || !node.isObject()) {
            throw new InvalidInputException("body: must be a JSON object");
        }
        return (ObjectNode) node;
    }
}
