package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseEvent;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@link AnswerEvent}s as an Anthropic Messages SSE stream (for an Anthropic client served by a node of the
 * other API): each event named as its type, the message's {@code model} the one asked for and its {@code debug}
 * object when the client asked for one.
 */
public final class AnthropicSseWriter {

    private final String model;
    private final Supplier<ObjectNode> debug;

    public AnthropicSseWriter(String model, Supplier<ObjectNode> debug) {
        this.model = model;
        this.debug = debug;
    }

    /** The event's SSE bytes (none for an event the client does not see). */
    public byte[] write(AnswerEvent event) {
        ObjectNode data = obj();
        String name;
        if (event instanceof AnswerEvent.Start start) {
            name = "message_start";
            ObjectNode message = start.message().deepCopy().put("model", model);
            if (debug != null) {
                message.set("debug", debug.get());
            }
            data.put("type", name).set("message", message);
        } else if (event instanceof AnswerEvent.BlockStart start) {
            name = "content_block_start";
            data.put("type", name).put("index", start.index()).set("content_block", start.block());
        } else if (event instanceof AnswerEvent.BlockDelta delta) {
            name = "content_block_delta";
            data.put("type", name).put("index", delta.index()).putObject("delta")
                    .put("type", delta.kind().wireType()).put(delta.kind().field(), delta.value());
        } else if (event instanceof AnswerEvent.OtherDelta delta) {
            name = "content_block_delta";
            data.put("type", name).put("index", delta.index()).set("delta", delta.delta());
        } else if (event instanceof AnswerEvent.BlockStop stop) {
            name = "content_block_stop";
            data.put("type", name).put("index", stop.index());
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            name = "message_delta";
            data.put("type", name).set("delta", delta.delta());
            data.set("usage", delta.usage());
        } else if (event instanceof AnswerEvent.Stop) {
            name = "message_stop";
            data.put("type", name);
        } else {
            return error(((AnswerEvent.Failure) event).error());
        }
        return new SseEvent(name, EventCodec.mapper().writeValueAsString(data)).bytes();
    }

    /** An {@code error} event. */
    public static byte[] error(ObjectNode error) {
        ObjectNode data = obj().put("type", "error");
        data.set("error", error);
        return new SseEvent("error", EventCodec.mapper().writeValueAsString(data)).bytes();
    }

    private static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }
}
