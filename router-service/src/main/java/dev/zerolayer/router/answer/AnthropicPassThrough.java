package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.Bytes;
import dev.zerolayer.router.wire.SseEvent;
import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Anthropic node's stream to an Anthropic client: content events go on as the node's very bytes; only
 * {@code message_start} is rewritten (the model asked for, and the {@code debug} object when asked); usage, the end
 * and the node's error are tracked on the way (an error before anything reached the client fails the attempt instead,
 * so the next node can serve; after it, and a stream that ends without {@code message_stop}, the node broke the
 * answer). The events passed on are kept, unread, when a continuation may need them.
 */
final class AnthropicPassThrough extends AttemptStream {

    /** Anthropic events (by their {@code event:} name) that carry neither usage, nor the end, nor the model. */
    private static final byte[][] PASSED_AS_IS = java.util.stream.Stream.of("content_block_start",
            "content_block_delta", "content_block_stop", "ping")
            .map(name -> name.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    private static final byte[] EVENT_FIELD = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_FIELD = "\ndata:".getBytes(StandardCharsets.US_ASCII);

    private final SseFramer framer = new SseFramer();
    private final String model;
    private final Supplier<ObjectNode> debug;

    /** @param transcript receives the events passed on (null: not kept) */
    AnthropicPassThrough(String model, Supplier<ObjectNode> debug, Transcript transcript) {
        super(transcript);
        this.model = model;
        this.debug = debug;
    }

    @Override
    public byte[] onChunk(byte[] chunk) {
        var events = framer.add(chunk);
        if (events.size() == 1) {
            return emitted(event(events.get(0)));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length + 64);
        for (byte[] event : events) {
            out.writeBytes(emitted(event(event)));
        }
        return out.toByteArray();
    }

    private byte[] emitted(byte[] bytes) {
        emitted |= bytes.length > 0;
        return bytes;
    }

    @Override
    public byte[] onEnd() {
        byte[] rest = framer.rest();
        byte[] last = rest == null ? new byte[0] : emitted(event(rest));
        upstreamEnded();
        return last;
    }

    @Override
    protected byte[] errorBytes(ObjectNode nodeError, String message) {
        return AnthropicSseWriter.error(nodeError != null ? nodeError : EventCodec.mapper().createObjectNode()
                .put("type", "overloaded_error").put("message", message));
    }

    @Override
    protected byte[] closeBytes() {
        return new SseEvent("message_stop", "{\"type\":\"message_stop\"}").bytes();
    }

    private byte[] event(byte[] raw) {
        if (terminal) {
            return new byte[0];
        }
        if (transcript != null) {
            transcript.raw(raw);
        }
        if (passedAsIs(raw)) {
            return raw;
        }
        SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
        if (event.data() == null) {
            return new byte[0];
        }
        ObjectNode data = event.json();
        if (data == null) {
            return raw;
        }
        switch (data.path("type").asString("")) {
            case "message_start" -> {
                if (data.get("message") instanceof ObjectNode message) {
                    JsonNode usage = message.path("usage");
                    inputTokens = usage.path("input_tokens").asInt(0);
                    outputTokens = usage.path("output_tokens").asInt(0);
                    message.put("model", model);
                    if (debug != null) {
                        message.set("debug", debug.get());
                    }
                    return new SseEvent(event.event() == null ? "message_start" : event.event(),
                            EventCodec.mapper().writeValueAsString(data)).bytes();
                }
            }
            case "message_delta" -> {
                JsonNode usage = data.path("usage");
                outputTokens = usage.path("output_tokens").asInt(outputTokens);
                inputTokens = usage.path("input_tokens").asInt(inputTokens);
            }
            case "message_stop" -> terminal = true;
            case "error" -> {
                // after the client got bytes the node broke the answer: what follows is the dispatcher's call
                nodeError(data.get("error") instanceof ObjectNode error ? error : null, emitted);
                return new byte[0];
            }
            default -> {
            }
        }
        return raw;
    }

    /**
     * Whether the raw event is a named content event with data: {@code event:} first, its name one of
     * {@link #PASSED_AS_IS}, and a {@code data:} line after it. Such an event changes nothing tracked here.
     */
    static boolean passedAsIs(byte[] raw) {
        if (!Bytes.startsWith(raw, 0, EVENT_FIELD)) {
            return false;
        }
        int from = EVENT_FIELD.length;
        while (from < raw.length && raw[from] == ' ') {
            from++;
        }
        int end = from;
        while (end < raw.length && raw[end] != '\n' && raw[end] != '\r') {
            end++;
        }
        for (byte[] name : PASSED_AS_IS) {
            if (end - from == name.length && Bytes.startsWith(raw, from, name)) {
                return Bytes.indexOf(raw, DATA_FIELD, end) >= 0;
            }
        }
        return false;
    }

    static byte[] concat(byte[] a, byte[] b) {
        if (a.length == 0) {
            return b;
        }
        byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
