package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseEvent;
import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI node's stream (chat or legacy completions) to a client of the same API: every chunk goes on with its
 * {@code model} the one asked for (and the {@code debug} object on the first when asked); the usage the gateway asked
 * the node for is read and, when the client did not ask for it, its chunk and the null {@code usage} fields are left
 * out. The node's error chunk after the client got chunks, and a stream that ends without {@code [DONE]}, break the
 * answer; the chunks passed on are kept, unread, when a continuation may need them.
 */
final class ChatPassThrough extends AttemptStream {

    private final SseFramer framer = new SseFramer();
    private final String model;
    private final Supplier<ObjectNode> debug;
    private final boolean clientWantsUsage;
    private boolean first = true;

    /** @param transcript receives the chunks passed on (null: not kept) */
    ChatPassThrough(String model, Supplier<ObjectNode> debug, boolean clientWantsUsage, Transcript transcript) {
        super(transcript);
        this.model = model;
        this.debug = debug;
        this.clientWantsUsage = clientWantsUsage;
    }

    @Override
    public byte[] onChunk(byte[] chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length + 64);
        for (byte[] event : framer.add(chunk)) {
            byte[] bytes = event(event);
            emitted |= bytes.length > 0;
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    @Override
    public byte[] onEnd() {
        byte[] rest = framer.rest();
        byte[] last = rest == null ? new byte[0] : event(rest);
        emitted |= last.length > 0;
        upstreamEnded();
        return last;
    }

    @Override
    protected byte[] errorBytes(ObjectNode nodeError, String message) {
        return errorChunk(nodeError != null ? nodeError.path("message").asString(message) : message);
    }

    @Override
    protected byte[] closeBytes() {
        return new SseEvent(null, "[DONE]").bytes();
    }

    /** An OpenAI-style error chunk, then {@code [DONE]}. */
    static byte[] errorChunk(String message) {
        ObjectNode error = EventCodec.mapper().createObjectNode();
        error.putObject("error").put("message", message).put("type", "server_error").putNull("param").putNull("code");
        return AnthropicPassThrough.concat(new SseEvent(null, EventCodec.mapper().writeValueAsString(error)).bytes(),
                new SseEvent(null, "[DONE]").bytes());
    }

    private byte[] event(byte[] raw) {
        if (terminal) {
            return new byte[0];
        }
        SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
        if (event.data() == null) {
            return new byte[0];
        }
        if (event.data().trim().equals("[DONE]")) {
            terminal = true;
            return raw;
        }
        ObjectNode data = event.json();
        if (data == null) {
            return raw;
        }
        if (data.has("error")) {
            // after the client got bytes the node broke the answer: what follows is the dispatcher's call
            nodeError(data.get("error") instanceof ObjectNode error ? error : null, emitted);
            return new byte[0];
        }
        if (transcript != null) {
            transcript.raw(raw);
        }
        if (data.hasNonNull("usage")) {
            inputTokens = data.get("usage").path("prompt_tokens").asInt(inputTokens);
            outputTokens = data.get("usage").path("completion_tokens").asInt(outputTokens);
        }
        if (!clientWantsUsage) {
            if (ChatChunkWriter.usageOnly(data)) {
                return new byte[0];
            }
            data.remove("usage");
        }
        data.put("model", model);
        if (first && debug != null) {
            data.set("debug", debug.get());
        }
        first = false;
        return new SseEvent(event.event(), EventCodec.mapper().writeValueAsString(data)).bytes();
    }
}
