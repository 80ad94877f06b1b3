package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an upstream event stream into the client's: the same API passes events through untouched except the
 * {@code model} (the one asked for) and the {@code debug} object in {@code message_start} / the first chunk; another
 * API is translated event by event. Tracks usage and whether the stream ended properly; a cut stream gets an error
 * event (Anthropic) or an error chunk then {@code [DONE]} (OpenAI).
 */
public class StreamShaper {

    /** Anthropic events (by their {@code event:} name) that carry neither usage, nor the end, nor the model. */
    private static final byte[][] PASSED_AS_IS = java.util.stream.Stream.of("content_block_start",
            "content_block_delta", "content_block_stop", "ping")
            .map(name -> name.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private static final byte[] EVENT_FIELD = "event:".getBytes(StandardCharsets.US_ASCII);

    private static final byte[] DATA_FIELD = "\ndata:".getBytes(StandardCharsets.US_ASCII);

    private final ClientApi client;
    private final ClientApi upstream;
    private final String model;
    private final java.util.function.Supplier<ObjectNode> debugSupplier;
    private ObjectNode debug;
    private boolean first = true;
    private boolean terminal;
    private boolean upstreamError;
    private int inputTokens;
    private int outputTokens;
    private String finishReason;
    private String id = "zl";

    public StreamShaper(ClientApi client, ClientApi upstream, String model,
            java.util.function.Supplier<ObjectNode> debug) {
        this.client = client;
        this.upstream = upstream;
        this.model = model;
        this.debugSupplier = debug;
    }

    /**
     * The client bytes for one upstream event, given as its raw bytes with the blank line that ended it (as
     * {@link SseFramer} cuts them): an Anthropic content event for an Anthropic client goes on as those very bytes.
     */
    public List<byte[]> onEvent(byte[] raw) {
        if (debug == null && debugSupplier != null) {
            debug = debugSupplier.get();
        }
        if (upstream == ClientApi.ANTHROPIC && client == ClientApi.ANTHROPIC && passedAsIs(raw)) {
            return List.of(raw);
        }
        SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
        if (event.data() == null) {
            return List.of();
        }
        if (upstream == ClientApi.ANTHROPIC) {
            return fromAnthropic(event);
        }
        return fromOpenAi(event);
    }

    /** What ends the client stream when the upstream ended or failed: nothing after a proper end, else an error. */
    public List<byte[]> onEnd(boolean failed) {
        if (terminal && !failed) {
            return List.of();
        }
        terminal = true;
        upstreamError = true;
        return error("overloaded_error", "the upstream node failed mid-stream");
    }

    public boolean failed() {
        return upstreamError;
    }

    public int inputTokens() {
        return inputTokens;
    }

    public int outputTokens() {
        return outputTokens;
    }

    /**
     * Whether the raw event is a named content event with data: {@code event:} first, its name one of
     * {@link #PASSED_AS_IS}, and a {@code data:} line after it. Such an event changes nothing the router tracks.
     */
    static boolean passedAsIs(byte[] raw) {
        if (!startsWith(raw, 0, EVENT_FIELD)) {
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
            if (end - from == name.length && startsWith(raw, from, name)) {
                return indexOf(raw, DATA_FIELD, end) >= 0;
            }
        }
        return false;
    }

    private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        if (bytes.length - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] bytes, byte[] part, int from) {
        for (int at = from; at <= bytes.length - part.length; at++) {
            if (startsWith(bytes, at, part)) {
                return at;
            }
        }
        return -1;
    }

    private List<byte[]> fromAnthropic(SseEvent event) {
        ObjectNode data = json(event.data());
        if (data == null) {
            return client == ClientApi.ANTHROPIC ? List.of(event.bytes()) : List.of();
        }
        String type = data.path("type").asString("");
        switch (type) {
            case "message_start" -> {
                JsonNode message = data.path("message");
                inputTokens = message.path("usage").path(upstream.inputTokensField()).asInt(0);
                outputTokens = message.path("usage").path(upstream.outputTokensField()).asInt(0);
                id = message.path("id").asString(id);
            }
            case "message_delta" -> {
                outputTokens = data.path("usage").path(upstream.outputTokensField()).asInt(outputTokens);
                finishReason = data.path("delta").path("stop_reason").asString(finishReason);
            }
            case "message_stop" -> terminal = true;
            case "error" -> {
                terminal = true;
                upstreamError = true;
            }
            default -> {
            }
        }
        if (client == ClientApi.ANTHROPIC) {
            if (type.equals("message_start") && data.get("message") instanceof ObjectNode message) {
                message.put("model", model);
                if (debug != null) {
                    message.set("debug", debug);
                }
                return List.of(new SseEvent(event.event() == null ? type : event.event(), write(data)).bytes());
            }
            return List.of(event.bytes());
        }
        // Anthropic upstream, OpenAI client.
        return switch (type) {
            case "message_start" -> List.of(chunk(delta().put("role", "assistant").put("content", ""), null, false));
            case "content_block_delta" -> data.path("delta").path("type").asString("").equals("text_delta")
                    ? List.of(chunk(delta().put("content", data.path("delta").path("text").asString("")), null,
                            false))
                    : List.of();
            case "message_delta" -> List.of(chunk(delta(), Translation.openAiFinish(finishReason), true));
            case "message_stop" -> List.of(done());
            case "error" -> error("overloaded_error", "the upstream node failed mid-stream");
            default -> List.of();
        };
    }

    private List<byte[]> fromOpenAi(SseEvent event) {
        if (event.data().trim().equals("[DONE]")) {
            terminal = true;
            if (client == ClientApi.OPENAI) {
                return List.of(event.bytes());
            }
            List<byte[]> end = new ArrayList<>();
            if (!first) {
                end.add(anthropic("content_block_stop", obj().put("type", "content_block_stop").put("index", 0)));
            }
            ObjectNode delta = obj().put("type", "message_delta");
            delta.putObject("delta").put("stop_reason", Translation.anthropicStop(finishReason)).putNull(
                    "stop_sequence");
            delta.putObject("usage").put("output_tokens", outputTokens);
            end.add(anthropic("message_delta", delta));
            end.add(anthropic("message_stop", obj().put("type", "message_stop")));
            return end;
        }
        ObjectNode data = json(event.data());
        if (data == null) {
            return client == ClientApi.OPENAI ? List.of(event.bytes()) : List.of();
        }
        if (data.has("error")) {
            terminal = true;
            upstreamError = true;
            return client == ClientApi.OPENAI ? List.of(event.bytes()) : error("overloaded_error",
                    "the upstream node failed mid-stream");
        }
        JsonNode usage = data.get("usage");
        if (usage != null && usage.isObject()) {
            inputTokens = usage.path(upstream.inputTokensField()).asInt(inputTokens);
            outputTokens = usage.path(upstream.outputTokensField()).asInt(outputTokens);
        }
        JsonNode choice = data.path("choices").path(0);
        if (!choice.path("finish_reason").isNull() && choice.path("finish_reason").isString()) {
            finishReason = choice.path("finish_reason").stringValue();
        }
        id = data.path("id").asString(id);
        if (client == ClientApi.OPENAI) {
            data.put("model", model);
            if (first && debug != null) {
                data.set("debug", debug);
            }
            first = false;
            return List.of(new SseEvent(event.event(), write(data)).bytes());
        }
        // OpenAI upstream, Anthropic client.
        List<byte[]> out = new ArrayList<>();
        if (first) {
            first = false;
            ObjectNode start = obj().put("type", "message_start");
            ObjectNode message = start.putObject("message");
            message.put("id", "msg_" + id).put("type", "message").put("role", "assistant");
            message.putArray("content");
            message.put("model", model).putNull("stop_reason").putNull("stop_sequence");
            message.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", 0);
            if (debug != null) {
                message.set("debug", debug);
            }
            out.add(anthropic("message_start", start));
            ObjectNode blockStart = obj().put("type", "content_block_start").put("index", 0);
            blockStart.putObject("content_block").put("type", "text").put("text", "");
            out.add(anthropic("content_block_start", blockStart));
        }
        String content = choice.path("delta").path("content").asString("");
        if (!content.isEmpty()) {
            ObjectNode delta = obj().put("type", "content_block_delta").put("index", 0);
            delta.putObject("delta").put("type", "text_delta").put("text", content);
            out.add(anthropic("content_block_delta", delta));
        }
        return out;
    }

    private List<byte[]> error(String type, String message) {
        if (client == ClientApi.ANTHROPIC) {
            return List.of(new SseEvent("error", write(client.errorObject(type, message))).bytes());
        }
        return List.of(new SseEvent(null, write(client.errorObject(type, message))).bytes(), done());
    }

    private byte[] chunk(ObjectNode delta, String finish, boolean withUsage) {
        ObjectNode chunk = obj().put("id", "chatcmpl-" + id).put("object", "chat.completion.chunk")
                .put("created", System.currentTimeMillis() / 1000).put("model", model);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0).set("delta", delta);
        choice.putNull("logprobs");
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        if (withUsage) {
            chunk.putObject("usage").put("prompt_tokens", inputTokens).put("completion_tokens", outputTokens)
                    .put("total_tokens", inputTokens + outputTokens);
        }
        if (first && debug != null) {
            chunk.set("debug", debug);
        }
        first = false;
        return new SseEvent(null, write(chunk)).bytes();
    }

    private static byte[] done() {
        return new SseEvent(null, "[DONE]").bytes();
    }

    private static byte[] anthropic(String name, ObjectNode data) {
        return new SseEvent(name, write(data)).bytes();
    }

    private static ObjectNode delta() {
        return obj();
    }

    private static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }

    private static ObjectNode json(String data) {
        try {
            JsonNode node = EventCodec.mapper().readTree(data);
            return node instanceof ObjectNode object ? object : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    private static String write(JsonNode node) {
        return EventCodec.mapper().writeValueAsString(node);
    }
}
