package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns {@link AnswerEvent}s into OpenAI {@code chat.completion.chunk}s (for an OpenAI client served by an Anthropic
 * node): a role chunk first, text as content deltas, thinking as {@code reasoning_content} deltas, each tool_use block
 * as a tool call (id and name first, then its arguments' fragments), the stop reason as the finish chunk, then the
 * usage chunk (prompt tokens counting cached ones, as OpenAI counts them).
 */
public final class ChatChunkWriter {

    private final String model;
    private final java.util.function.Supplier<ObjectNode> debug;
    private final long created = System.currentTimeMillis() / 1000;
    private final Map<Integer, String> kinds = new HashMap<>();
    private final Map<Integer, Integer> toolIndexes = new HashMap<>();
    private String id = "chatcmpl-zl";
    private ObjectNode usage = obj();
    private String finish;

    public ChatChunkWriter(String model) {
        this(model, null);
    }

    /** @param debug the {@code debug} object the first chunk carries (null: none asked), as a passed-on stream's does */
    public ChatChunkWriter(String model, java.util.function.Supplier<ObjectNode> debug) {
        this.model = model;
        this.debug = debug;
    }

    /** Goes on with a stream whose chunks another writer (or the node) began: its chunks' id. */
    void resume(String chunkId) {
        id = chunkId;
    }

    /** The chunks for one event (an error is a chunk holding {@code error}). */
    public List<ObjectNode> write(AnswerEvent event) {
        List<ObjectNode> out = new ArrayList<>(1);
        if (event instanceof AnswerEvent.Start start) {
            id = "chatcmpl-" + start.message().path("id").asString("zl").replaceFirst("^msg_", "");
            usage = start.message().get("usage") instanceof ObjectNode u ? u.deepCopy() : obj();
            ObjectNode first = chunk(obj().put("role", "assistant").put("content", ""), null);
            if (debug != null) {
                first.set("debug", debug.get());
            }
            out.add(first);
        } else if (event instanceof AnswerEvent.BlockStart start) {
            String type = start.block().path("type").asString("");
            kinds.put(start.index(), type);
            if (type.equals("tool_use")) {
                int call = toolIndexes.size();
                toolIndexes.put(start.index(), call);
                ObjectNode delta = obj();
                ObjectNode tool = delta.putArray("tool_calls").addObject().put("index", call)
                        .put("id", start.block().path("id").asString("")).put("type", "function");
                tool.putObject("function").put("name", start.block().path("name").asString("")).put("arguments", "");
                out.add(chunk(delta, null));
            } else if (type.equals("text") && !start.block().path("text").asString("").isEmpty()) {
                out.add(chunk(obj().put("content", start.block().get("text").stringValue()), null));
            }
        } else if (event instanceof AnswerEvent.BlockDelta delta) {
            switch (delta.kind()) {
                case TEXT -> out.add(chunk(obj().put("content", delta.value()), null));
                case THINKING -> out.add(chunk(obj().put("reasoning_content", delta.value()), null));
                case INPUT_JSON -> {
                    Integer call = toolIndexes.get(delta.index());
                    if (call != null && !delta.value().isEmpty()) {
                        ObjectNode d = obj();
                        d.putArray("tool_calls").addObject().put("index", call).putObject("function")
                                .put("arguments", delta.value());
                        out.add(chunk(d, null));
                    }
                }
                case SIGNATURE -> {
                }
            }
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            String stop = delta.delta().path("stop_reason").asString(null);
            if (stop != null) {
                finish = finishReason(stop);
            }
            delta.usage().properties().forEach(field -> {
                if (!field.getValue().isNull()) {
                    usage.set(field.getKey(), field.getValue());
                }
            });
        } else if (event instanceof AnswerEvent.Stop) {
            out.add(chunk(obj(), finish == null ? "stop" : finish));
            ObjectNode last = base();
            last.putArray("choices");
            last.set("usage", openAiUsage(usage));
            out.add(last);
        } else if (event instanceof AnswerEvent.Failure failure) {
            ObjectNode error = obj();
            error.putObject("error").put("message", failure.error().path("message").asString("the node failed"))
                    .put("type", "server_error").putNull("param").putNull("code");
            out.add(error);
        }
        return out;
    }

    /** Whether a chunk is the usage chunk (no choices, usage set). */
    public static boolean usageOnly(ObjectNode chunk) {
        return chunk.path("choices").isArray() && chunk.path("choices").isEmpty() && chunk.hasNonNull("usage");
    }

    private ObjectNode chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = base();
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk;
    }

    private ObjectNode base() {
        return obj().put("id", id).put("object", "chat.completion.chunk").put("created", created).put("model", model);
    }

    /** An Anthropic usage object as OpenAI's: prompt tokens include cached and cache-written ones. */
    static ObjectNode openAiUsage(JsonNode usage) {
        int input = usage.path("input_tokens").asInt(0);
        int cacheRead = usage.path("cache_read_input_tokens").asInt(0);
        int cacheWrite = usage.path("cache_creation_input_tokens").asInt(0);
        int output = usage.path("output_tokens").asInt(0);
        int prompt = input + cacheRead + cacheWrite;
        ObjectNode out = obj().put("prompt_tokens", prompt).put("completion_tokens", output)
                .put("total_tokens", prompt + output);
        out.putObject("prompt_tokens_details").put("cached_tokens", cacheRead);
        JsonNode thinking = usage.path("output_tokens_details").path("thinking_tokens");
        out.putObject("completion_tokens_details").put("reasoning_tokens", thinking.asInt(0));
        return out;
    }

    /** The OpenAI finish reason of an Anthropic stop reason. */
    public static String finishReason(String stopReason) {
        return switch (stopReason) {
            case "max_tokens", "model_context_window_exceeded" -> "length";
            case "tool_use" -> "tool_calls";
            case "refusal" -> "content_filter";
            default -> "stop";
        };
    }

    private static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }
}
