package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the {@code chat.completion} (or legacy {@code text_completion}) a node would have sent whole from its stream's
 * chunks: the first chunk's top-level fields, every choice by its index with its content, refusal, reasoning, tool
 * calls (by their index: id, name and the arguments' fragments joined) and log probabilities appended, its finish
 * reason, and the usage chunk.
 */
public final class ChatAssembler {

    private final boolean legacy;
    private ObjectNode top;
    private final Map<Integer, Choice> choices = new TreeMap<>();
    private JsonNode usage;
    private boolean done;
    private ObjectNode error;

    private static final class Choice {
        final StringBuilder content = new StringBuilder();
        StringBuilder refusal;
        StringBuilder reasoning;
        String reasoningField;
        String role = "assistant";
        boolean hasContent;
        final Map<Integer, ObjectNode> calls = new TreeMap<>();
        final Map<Integer, StringBuilder> arguments = new TreeMap<>();
        JsonNode logprobs;
        JsonNode finishReason;
    }

    /** @param legacy the chunks are legacy completions ({@code choices[].text}) rather than chat completions */
    public ChatAssembler(boolean legacy) {
        this.legacy = legacy;
    }

    public void accept(ObjectNode chunk) {
        if (chunk.has("error")) {
            error = chunk.get("error") instanceof ObjectNode e ? e : EventCodec.mapper().createObjectNode();
            return;
        }
        if (top == null) {
            top = chunk.deepCopy();
            top.remove("choices");
            top.remove("usage");
            top.put("object", legacy ? "text_completion" : "chat.completion");
        } else {
            for (String field : new String[] {"system_fingerprint", "service_tier"}) {
                if (chunk.hasNonNull(field)) {
                    top.set(field, chunk.get(field));
                }
            }
        }
        if (chunk.hasNonNull("usage")) {
            usage = chunk.get("usage");
        }
        for (JsonNode delta : chunk.path("choices")) {
            Choice choice = choices.computeIfAbsent(delta.path("index").asInt(0), i -> new Choice());
            if (legacy) {
                choice.content.append(delta.path("text").asString(""));
                choice.hasContent = true;
                appendLogprobs(choice, delta.get("logprobs"));
            } else {
                JsonNode d = delta.path("delta");
                if (d.path("role").isString()) {
                    choice.role = d.get("role").stringValue();
                }
                if (d.path("content").isString()) {
                    choice.content.append(d.get("content").stringValue());
                    choice.hasContent = true;
                }
                if (d.path("refusal").isString()) {
                    (choice.refusal == null ? choice.refusal = new StringBuilder() : choice.refusal)
                            .append(d.get("refusal").stringValue());
                }
                for (String field : new String[] {"reasoning_content", "reasoning"}) {
                    if (d.path(field).isString()) {
                        choice.reasoningField = field;
                        (choice.reasoning == null ? choice.reasoning = new StringBuilder() : choice.reasoning)
                                .append(d.get(field).stringValue());
                    }
                }
                for (JsonNode call : d.path("tool_calls")) {
                    int index = call.path("index").asInt(0);
                    ObjectNode known = choice.calls.computeIfAbsent(index, i -> {
                        ObjectNode made = EventCodec.mapper().createObjectNode();
                        made.putNull("id");
                        made.put("type", "function");
                        made.putObject("function").putNull("name");
                        return made;
                    });
                    if (call.path("id").isString()) {
                        known.put("id", call.get("id").stringValue());
                    }
                    if (call.path("type").isString()) {
                        known.put("type", call.get("type").stringValue());
                    }
                    if (call.path("function").path("name").isString()) {
                        ((ObjectNode) known.get("function")).put("name", call.get("function").get("name").stringValue());
                    }
                    choice.arguments.computeIfAbsent(index, i -> new StringBuilder())
                            .append(call.path("function").path("arguments").asString(""));
                }
                appendLogprobs(choice, delta.get("logprobs"));
            }
            if (delta.hasNonNull("finish_reason")) {
                choice.finishReason = delta.get("finish_reason");
            }
        }
    }

    private static void appendLogprobs(Choice choice, JsonNode logprobs) {
        if (logprobs == null || logprobs.isNull()) {
            return;
        }
        if (choice.logprobs == null) {
            choice.logprobs = logprobs.deepCopy();
            return;
        }
        if (choice.logprobs instanceof ObjectNode merged) {
            logprobs.properties().forEach(field -> {
                if (merged.get(field.getKey()) instanceof ArrayNode into && field.getValue().isArray()) {
                    into.addAll((ArrayNode) field.getValue());
                }
            });
        }
    }

    /** The stream's {@code [DONE]} arrived. */
    public void done() {
        done = true;
    }

    /** Whether the stream ended properly: {@code [DONE]}, or every choice finished. */
    public boolean complete() {
        if (error != null || top == null) {
            return false;
        }
        return done || (!choices.isEmpty() && choices.values().stream().allMatch(c -> c.finishReason != null));
    }

    public ObjectNode error() {
        return error;
    }

    /** The whole completion, its {@code model} set as given. */
    public ObjectNode completion(String model) {
        ObjectNode out = top.deepCopy();
        out.put("model", model);
        ArrayNode list = out.putArray("choices");
        for (Map.Entry<Integer, Choice> entry : choices.entrySet()) {
            Choice choice = entry.getValue();
            ObjectNode item = list.addObject();
            if (legacy) {
                item.put("text", choice.content.toString());
                item.put("index", entry.getKey());
                if (choice.logprobs == null) {
                    item.putNull("logprobs");
                } else {
                    item.set("logprobs", choice.logprobs);
                }
            } else {
                item.put("index", entry.getKey());
                ObjectNode message = item.putObject("message").put("role", choice.role);
                if (choice.hasContent || choice.calls.isEmpty()) {
                    message.put("content", choice.content.toString());
                } else {
                    message.putNull("content");
                }
                if (choice.refusal == null) {
                    message.putNull("refusal");
                } else {
                    message.put("refusal", choice.refusal.toString());
                }
                if (choice.reasoning != null) {
                    message.put(choice.reasoningField, choice.reasoning.toString());
                }
                if (!choice.calls.isEmpty()) {
                    ArrayNode calls = message.putArray("tool_calls");
                    choice.calls.forEach((index, call) -> {
                        ((ObjectNode) call.get("function")).put("arguments", choice.arguments.get(index).toString());
                        calls.add(call);
                    });
                }
                if (choice.logprobs == null) {
                    item.putNull("logprobs");
                } else {
                    item.set("logprobs", choice.logprobs);
                }
            }
            if (choice.finishReason == null) {
                item.putNull("finish_reason");
            } else {
                item.set("finish_reason", choice.finishReason);
            }
        }
        if (usage != null) {
            out.set("usage", usage);
        }
        return out;
    }

    public int inputTokens() {
        return usage == null ? 0 : usage.path("prompt_tokens").asInt(0);
    }

    public int outputTokens() {
        return usage == null ? 0 : usage.path("completion_tokens").asInt(0);
    }
}
