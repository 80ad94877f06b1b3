package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the Anthropic message a node would have sent whole from its stream's events: the message as it started,
 * every content block with its deltas applied (text and thinking appended, the signature set, a tool call's partial
 * JSON parsed into its input, citations added), the message delta's fields and the usage merged as the official SDKs
 * merge it (each usage field the delta carries replaces the start's).
 */
public final class MessageAssembler {

    private ObjectNode message;
    private final Map<Integer, Block> blocks = new TreeMap<>();
    private boolean complete;
    private ObjectNode error;

    private static final class Block {
        final ObjectNode node;
        final StringBuilder text = new StringBuilder();
        final StringBuilder thinking = new StringBuilder();
        final StringBuilder json = new StringBuilder();

        Block(ObjectNode node) {
            this.node = node;
        }
    }

    public void accept(AnswerEvent event) {
        if (event instanceof AnswerEvent.Start start) {
            message = start.message();
        } else if (event instanceof AnswerEvent.BlockStart start) {
            blocks.put(start.index(), new Block(start.block()));
        } else if (event instanceof AnswerEvent.BlockDelta delta) {
            Block block = blocks.get(delta.index());
            if (block != null) {
                switch (delta.kind()) {
                    case TEXT -> block.text.append(delta.value());
                    case THINKING -> block.thinking.append(delta.value());
                    case SIGNATURE -> block.node.put("signature", delta.value());
                    case INPUT_JSON -> block.json.append(delta.value());
                }
            }
        } else if (event instanceof AnswerEvent.OtherDelta delta) {
            Block block = blocks.get(delta.index());
            if (block != null && delta.delta().get("citation") != null) {
                JsonNode citations = block.node.get("citations");
                (citations instanceof ArrayNode array ? array : block.node.putArray("citations"))
                        .add(delta.delta().get("citation"));
            }
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            if (message != null) {
                delta.delta().properties().forEach(field -> message.set(field.getKey(), field.getValue()));
                ObjectNode usage = message.get("usage") instanceof ObjectNode u ? u : message.putObject("usage");
                delta.usage().properties().forEach(field -> {
                    if (!field.getValue().isNull()) {
                        usage.set(field.getKey(), field.getValue());
                    }
                });
            }
        } else if (event instanceof AnswerEvent.Stop) {
            complete = message != null;
        } else if (event instanceof AnswerEvent.Failure failure) {
            error = failure.error();
        }
    }

    /** Whether the message stopped properly (and no error came). */
    public boolean complete() {
        return complete && error == null;
    }

    /** The node's error, if it sent one. */
    public ObjectNode error() {
        return error;
    }

    /** The message as a whole (after a complete stream), with {@code model} set as given. */
    public ObjectNode message(String model) {
        ArrayNode content = EventCodec.mapper().createArrayNode();
        for (Block block : blocks.values()) {
            String type = block.node.path("type").asString("");
            if (type.equals("text")) {
                block.node.put("text", block.node.path("text").asString("") + block.text);
            } else if (type.equals("thinking")) {
                block.node.put("thinking", block.node.path("thinking").asString("") + block.thinking);
            } else if (!block.json.isEmpty()) {
                block.node.set("input", input(block.json.toString()));
            }
            content.add(block.node);
        }
        message.set("content", content);
        message.put("model", model);
        return message;
    }

    /** Output tokens so far (the last usage seen). */
    public int outputTokens() {
        return message == null ? 0 : message.path("usage").path("output_tokens").asInt(0);
    }

    public int inputTokens() {
        return message == null ? 0 : message.path("usage").path("input_tokens").asInt(0);
    }

    /** A tool call's input: its JSON object, or an empty object when the node's JSON is not one. */
    static JsonNode input(String json) {
        try {
            JsonNode input = EventCodec.mapper().readTree(json);
            return input != null && input.isObject() ? input : EventCodec.mapper().createObjectNode();
        } catch (JacksonException e) {
            return EventCodec.mapper().createObjectNode();
        }
    }
}
