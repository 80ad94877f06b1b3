package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one Anthropic Messages SSE event (its raw bytes, as {@link dev.zerolayer.router.wire.SseFramer} cuts them)
 * into an {@link AnswerEvent}: the plain deltas and stops straight from their bytes ({@link EventScanner}), other content
 * deltas by a streaming parse (they are most of a stream), the rest as trees;
 * {@code ping}, events without data and event types it does not know are nothing (null).
 */
public final class AnthropicEvents {

    private AnthropicEvents() {
    }

    /** The event, or null for one that changes nothing (ping, unknown, no data). */
    public static AnswerEvent read(byte[] raw) {
        int[] range = dataRange(raw);
        if (range == null) {
            SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
            if (event.data() == null) {
                return null;
            }
            byte[] data = event.data().getBytes(StandardCharsets.UTF_8);
            return read(data, 0, data.length);
        }
        return read(raw, range[0], range[1]);
    }

    /** An event from its JSON data. */
    static AnswerEvent read(byte[] bytes, int offset, int length) {
        AnswerEvent plain = EventScanner.read(bytes, offset, length);
        return plain != null ? plain : parsed(bytes, offset, length);
    }

    /** An event from its JSON data by the JSON parser alone (what {@link EventScanner} must agree with). */
    static AnswerEvent parsed(byte[] bytes, int offset, int length) {
        AnswerEvent delta = delta(bytes, offset, length);
        if (delta != null) {
            return delta;
        }
        JsonNode node;
        try {
            node = EventCodec.mapper().readTree(EventCodec.mapper().createParser(bytes, offset, length));
        } catch (JacksonException e) {
            return null;
        }
        if (!(node instanceof ObjectNode data)) {
            return null;
        }
        return switch (data.path("type").asString("")) {
            case "message_start" -> data.get("message") instanceof ObjectNode message
                    ? new AnswerEvent.Start(message) : null;
            case "content_block_start" -> data.get("content_block") instanceof ObjectNode block
                    ? new AnswerEvent.BlockStart(data.path("index").asInt(0), block) : null;
            case "content_block_delta" -> data.get("delta") instanceof ObjectNode other
                    ? deltaOf(data.path("index").asInt(0), other) : null;
            case "content_block_stop" -> new AnswerEvent.BlockStop(data.path("index").asInt(0));
            case "message_delta" -> new AnswerEvent.MessageDelta(
                    data.get("delta") instanceof ObjectNode d ? d : EventCodec.mapper().createObjectNode(),
                    data.get("usage") instanceof ObjectNode u ? u : EventCodec.mapper().createObjectNode());
            case "message_stop" -> new AnswerEvent.Stop();
            case "error" -> new AnswerEvent.Failure(data.get("error") instanceof ObjectNode e ? e
                    : EventCodec.mapper().createObjectNode().put("type", "api_error").put("message", "error"));
            default -> null;
        };
    }

    private static AnswerEvent deltaOf(int index, ObjectNode delta) {
        AnswerEvent.Kind kind = AnswerEvent.Kind.ofWire(delta.path("type").asString(""));
        if (kind != null && delta.path(kind.field()).isString()) {
            return new AnswerEvent.BlockDelta(index, kind, delta.get(kind.field()).stringValue());
        }
        return new AnswerEvent.OtherDelta(index, delta);
    }

    /**
     * A {@code content_block_delta} of a known kind read without a tree: {@code type}, {@code index} and the delta's
     * type and value, in any order; null when the data is anything else (read as a tree then).
     */
    private static AnswerEvent delta(byte[] bytes, int offset, int length) {
        String type = null;
        int index = -1;
        AnswerEvent.Kind kind = null;
        String value = null;
        try (JsonParser parser = EventCodec.mapper().createParser(bytes, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (name) {
                    case "type" -> {
                        type = token == JsonToken.VALUE_STRING ? parser.getString() : null;
                        if (!"content_block_delta".equals(type)) {
                            return null;
                        }
                    }
                    case "index" -> index = token == JsonToken.VALUE_NUMBER_INT ? parser.getIntValue() : -1;
                    case "delta" -> {
                        if (token != JsonToken.START_OBJECT) {
                            return null;
                        }
                        String deltaType = null;
                        String text = null;
                        String field = null;
                        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                            String inner = parser.currentName();
                            JsonToken innerToken = parser.nextToken();
                            if (inner.equals("type") && innerToken == JsonToken.VALUE_STRING) {
                                deltaType = parser.getString();
                            } else if (innerToken == JsonToken.VALUE_STRING && text == null) {
                                field = inner;
                                text = parser.getString();
                            } else {
                                return null;
                            }
                        }
                        kind = deltaType == null ? null : AnswerEvent.Kind.ofWire(deltaType);
                        if (kind == null || !kind.field().equals(field)) {
                            return null;
                        }
                        value = text;
                    }
                    default -> {
                        return null;
                    }
                }
            }
        } catch (JacksonException e) {
            return null;
        }
        return type != null && index >= 0 && kind != null && value != null
                ? new AnswerEvent.BlockDelta(index, kind, value) : null;
    }

    /** The byte range (offset, length) of the event's one {@code data:} value, or null unless there is exactly one. */
    static int[] dataRange(byte[] raw) {
        int[] found = null;
        int at = 0;
        while (at < raw.length) {
            int end = at;
            while (end < raw.length && raw[end] != '\n' && raw[end] != '\r') {
                end++;
            }
            if (end - at >= 5 && raw[at] == 'd' && raw[at + 1] == 'a' && raw[at + 2] == 't' && raw[at + 3] == 'a'
                    && raw[at + 4] == ':') {
                if (found != null) {
                    return null;
                }
                int from = at + 5 < end && raw[at + 5] == ' ' ? at + 6 : at + 5;
                found = new int[] {from, end - from};
            }
            at = end + 1;
        }
        return found;
    }
}
