package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns {@link AnswerEvent}s into an OpenAI Responses answer: the stream's events in order (created, in progress, each
 * output item added, grown and done, completed / incomplete / failed, every event numbered) and the final response
 * object, which is also the whole non-streaming answer. Text blocks become output_text parts of a message item,
 * thinking a reasoning item with its text as summary, tool calls function_call items; the request's parameters are
 * echoed as the API echoes them. Each finished item goes to a sink (for later {@code item_reference}s), and so does
 * the finished response (for a later {@code previous_response_id}).
 */
public final class ResponsesWriter {

    private static final SecureRandom IDS = new SecureRandom();

    private final ObjectNode request;
    private final String model;
    private final ItemSink itemSink;
    private final String id;
    private final long createdAt = System.currentTimeMillis() / 1000;
    private final List<ObjectNode> output = new ArrayList<>();
    private int sequence;
    private ObjectNode usage = obj();
    private String status = "in_progress";
    private String incompleteReason;
    private ObjectNode error;
    /** The item being written: its output index and kind; -1 when none. */
    private int openItem = -1;
    private String openKind;
    private final StringBuilder openText = new StringBuilder();
    /** Whether the open message item has a text part still growing. */
    private boolean textPartOpen;

    /**
     * @param request  the client's request body (its parameters are echoed)
     * @param model    the model asked for
     * @param itemSink receives every finished output item and gives the tail of their ids
     */
    public ResponsesWriter(ObjectNode request, String model, ItemSink itemSink) {
        this.request = request;
        this.model = model;
        this.itemSink = itemSink;
        // the same tail as its items: a later previous_response_id names the replica that keeps it
        this.id = "resp_" + hex(ResponseItems.ID_RANDOM) + itemSink.idTail();
    }

    /** The stream events for one answer event. */
    public List<ObjectNode> write(AnswerEvent event) {
        List<ObjectNode> out = new ArrayList<>(3);
        if (event instanceof AnswerEvent.Start start) {
            if (start.message().get("usage") instanceof ObjectNode u) {
                usage = u.deepCopy();
            }
            out.add(lifecycle("response.created"));
            out.add(lifecycle("response.in_progress"));
        } else if (event instanceof AnswerEvent.BlockStart start) {
            blockStart(start.block(), out);
        } else if (event instanceof AnswerEvent.BlockDelta delta) {
            blockDelta(delta, out);
        } else if (event instanceof AnswerEvent.BlockStop) {
            if (!"message".equals(openKind)) {
                closeItem(out);
            } else {
                closeTextPart(out);
            }
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            String stop = delta.delta().path("stop_reason").asString(null);
            if ("max_tokens".equals(stop) || "model_context_window_exceeded".equals(stop)) {
                incompleteReason = "max_output_tokens";
            } else if ("refusal".equals(stop)) {
                incompleteReason = "content_filter";
            }
            delta.usage().properties().forEach(field -> {
                if (!field.getValue().isNull()) {
                    usage.set(field.getKey(), field.getValue());
                }
            });
        } else if (event instanceof AnswerEvent.Stop) {
            closeItem(out);
            status = incompleteReason == null ? "completed" : "incomplete";
            ObjectNode finished = lifecycle(incompleteReason == null ? "response.completed" : "response.incomplete");
            out.add(finished);
            itemSink.answered(request, (ObjectNode) finished.get("response"));
        } else if (event instanceof AnswerEvent.Failure failure) {
            out.addAll(failed(failure.error().path("message").asString("the node failed mid-answer")));
        }
        return out;
    }

    /** The events that end a stream whose node failed: an error event, then {@code response.failed}. */
    public List<ObjectNode> failed(String message) {
        status = "failed";
        error = obj().put("code", "server_error").put("message", message);
        ObjectNode event = event("error");
        event.putObject("error").put("type", "server_error").put("code", "server_error").put("message", message)
                .putNull("param");
        event.put("code", "server_error").put("message", message).putNull("param");
        return List.of(event, lifecycle("response.failed"));
    }

    /** The response object as it stands (after the stream's end: the whole answer). */
    public ObjectNode response() {
        ObjectNode response = obj().put("id", id).put("object", "response").put("created_at", createdAt)
                .put("status", status);
        if ("completed".equals(status) || "incomplete".equals(status)) {
            response.put("completed_at", System.currentTimeMillis() / 1000);
        }
        if (error == null) {
            response.putNull("error");
        } else {
            response.set("error", error);
        }
        if (incompleteReason != null && "incomplete".equals(status)) {
            response.putObject("incomplete_details").put("reason", incompleteReason);
        } else {
            response.putNull("incomplete_details");
        }
        echo(response, "instructions");
        echo(response, "max_output_tokens");
        response.put("model", model);
        ArrayNode items = response.putArray("output");
        output.forEach(items::add);
        response.put("parallel_tool_calls", request.path("parallel_tool_calls").asBoolean(true));
        echo(response, "previous_response_id");
        ObjectNode reasoning = response.putObject("reasoning");
        JsonNode effort = request.path("reasoning").path("effort");
        if (effort.isMissingNode()) {
            reasoning.putNull("effort");
        } else {
            reasoning.set("effort", effort);
        }
        reasoning.putNull("summary");
        response.put("store", request.path("store").asBoolean(true));
        echo(response, "temperature");
        ObjectNode text = response.putObject("text");
        JsonNode format = request.path("text").path("format");
        text.set("format", format.isObject() ? format : obj().put("type", "text"));
        response.set("tool_choice", request.hasNonNull("tool_choice") ? request.get("tool_choice")
                : EventCodec.mapper().getNodeFactory().stringNode("auto"));
        response.set("tools", request.path("tools").isArray() ? request.get("tools")
                : EventCodec.mapper().createArrayNode());
        echo(response, "top_p");
        response.put("truncation", request.path("truncation").asString("disabled"));
        if ("in_progress".equals(status) || "failed".equals(status) && usage.isEmpty()) {
            response.putNull("usage");
        } else {
            response.set("usage", responsesUsage(usage));
        }
        echo(response, "user");
        response.set("metadata", request.path("metadata").isObject() ? request.get("metadata") : obj());
        return response;
    }

    private void blockStart(ObjectNode block, List<ObjectNode> out) {
        String type = block.path("type").asString("");
        switch (type) {
            case "text" -> {
                if (!"message".equals(openKind)) {
                    closeItem(out);
                    ObjectNode item = obj().put("id", itemId("msg_")).put("type", "message")
                            .put("status", "in_progress");
                    item.putArray("content");
                    item.put("role", "assistant");
                    openItem(item, "message", out);
                }
                ArrayNode content = (ArrayNode) output.get(openItem).get("content");
                ObjectNode part = obj().put("type", "output_text");
                part.putArray("annotations");
                part.putArray("logprobs");
                part.put("text", "");
                content.add(part);
                textPartOpen = true;
                ObjectNode added = itemEvent("response.content_part.added").put("content_index", content.size() - 1);
                added.set("part", part.deepCopy());
                out.add(added);
                openText.setLength(0);
                String initial = block.path("text").asString("");
                if (!initial.isEmpty()) {
                    textDelta(initial, out);
                }
            }
            case "thinking", "redacted_thinking" -> {
                closeItem(out);
                ObjectNode item = obj().put("id", itemId("rs_")).put("type", "reasoning");
                item.putArray("summary");
                openItem(item, "reasoning", out);
                openText.setLength(0);
            }
            case "tool_use" -> {
                closeItem(out);
                ObjectNode item = obj().put("id", itemId("fc_")).put("type", "function_call")
                        .put("status", "in_progress").put("arguments", "")
                        .put("call_id", block.path("id").asString("call_" + hex(12)))
                        .put("name", block.path("name").asString(""));
                openItem(item, "function_call", out);
                openText.setLength(0);
            }
            default -> closeItem(out);
        }
    }

    private void blockDelta(AnswerEvent.BlockDelta delta, List<ObjectNode> out) {
        if (openItem < 0) {
            return;
        }
        switch (delta.kind()) {
            case TEXT -> {
                if ("message".equals(openKind)) {
                    textDelta(delta.value(), out);
                }
            }
            case THINKING -> {
                if ("reasoning".equals(openKind) && !delta.value().isEmpty()) {
                    ObjectNode item = output.get(openItem);
                    if (item.get("summary").isEmpty()) {
                        ((ArrayNode) item.get("summary")).addObject().put("type", "summary_text").put("text", "");
                        ObjectNode added = itemEvent("response.reasoning_summary_part.added").put("summary_index", 0);
                        added.putObject("part").put("type", "summary_text").put("text", "");
                        out.add(added);
                    }
                    openText.append(delta.value());
                    out.add(itemEvent("response.reasoning_summary_text.delta").put("summary_index", 0)
                            .put("delta", delta.value()));
                }
            }
            case INPUT_JSON -> {
                if ("function_call".equals(openKind) && !delta.value().isEmpty()) {
                    openText.append(delta.value());
                    out.add(itemEvent("response.function_call_arguments.delta").put("delta", delta.value()));
                }
            }
            case SIGNATURE -> {
            }
        }
    }

    private void textDelta(String text, List<ObjectNode> out) {
        openText.append(text);
        ArrayNode content = (ArrayNode) output.get(openItem).get("content");
        ObjectNode event = itemEvent("response.output_text.delta").put("content_index", content.size() - 1)
                .put("delta", text);
        event.putArray("logprobs");
        out.add(event);
    }

    private void openItem(ObjectNode item, String kind, List<ObjectNode> out) {
        output.add(item);
        openItem = output.size() - 1;
        openKind = kind;
        ObjectNode added = event("response.output_item.added").put("output_index", openItem);
        added.set("item", item.deepCopy());
        out.add(added);
    }

    /** Ends the message's current text part (its done events), the item staying open for more parts. */
    private void closeTextPart(List<ObjectNode> out) {
        if (!"message".equals(openKind) || openItem < 0 || !textPartOpen) {
            return;
        }
        textPartOpen = false;
        ArrayNode content = (ArrayNode) output.get(openItem).get("content");
        ObjectNode part = (ObjectNode) content.get(content.size() - 1);
        part.put("text", openText.toString());
        int index = content.size() - 1;
        ObjectNode done = itemEvent("response.output_text.done").put("content_index", index)
                .put("text", openText.toString());
        done.putArray("logprobs");
        out.add(done);
        ObjectNode partDone = itemEvent("response.content_part.done").put("content_index", index);
        partDone.set("part", part.deepCopy());
        out.add(partDone);
        openText.setLength(0);
    }

    private void closeItem(List<ObjectNode> out) {
        if (openItem < 0) {
            return;
        }
        ObjectNode item = output.get(openItem);
        switch (openKind) {
            case "message" -> {
                closeTextPart(out);
                item.put("status", incompleteReason == null ? "completed" : "incomplete");
            }
            case "reasoning" -> {
                if (!item.get("summary").isEmpty()) {
                    ((ObjectNode) item.get("summary").get(0)).put("text", openText.toString());
                    out.add(itemEvent("response.reasoning_summary_text.done").put("summary_index", 0)
                            .put("text", openText.toString()));
                    ObjectNode partDone = itemEvent("response.reasoning_summary_part.done").put("summary_index", 0);
                    partDone.set("part", item.get("summary").get(0).deepCopy());
                    out.add(partDone);
                }
                item.putNull("encrypted_content");
            }
            case "function_call" -> {
                String arguments = openText.isEmpty() ? "{}" : openText.toString();
                item.put("arguments", arguments);
                item.put("status", "completed");
                out.add(itemEvent("response.function_call_arguments.done").put("arguments", arguments));
            }
            default -> {
            }
        }
        ObjectNode done = event("response.output_item.done").put("output_index", openItem);
        done.set("item", item.deepCopy());
        out.add(done);
        if (request.path("store").asBoolean(true)) {
            itemSink.remember(item); // an answer asked with store false keeps nothing, as in OpenAI's API
        }
        openItem = -1;
        openKind = null;
        openText.setLength(0);
    }

    private ObjectNode lifecycle(String type) {
        ObjectNode event = event(type);
        event.set("response", response());
        return event;
    }

    private ObjectNode itemEvent(String type) {
        return event(type).put("item_id", output.get(openItem).path("id").asString(""))
                .put("output_index", openItem);
    }

    private ObjectNode event(String type) {
        return obj().put("type", type).put("sequence_number", sequence++);
    }

    private void echo(ObjectNode response, String field) {
        JsonNode value = request.get(field);
        if (value == null) {
            response.putNull(field);
        } else {
            response.set(field, value);
        }
    }

    /** Anthropic usage as the Responses API's: input tokens count the cached ones. */
    static ObjectNode responsesUsage(JsonNode usage) {
        int cacheRead = usage.path("cache_read_input_tokens").asInt(0);
        int input = usage.path("input_tokens").asInt(0) + cacheRead + usage.path("cache_creation_input_tokens").asInt(0);
        int output = usage.path("output_tokens").asInt(0);
        ObjectNode out = obj().put("input_tokens", input);
        out.putObject("input_tokens_details").put("cached_tokens", cacheRead);
        out.put("output_tokens", output);
        out.putObject("output_tokens_details").put("reasoning_tokens",
                usage.path("output_tokens_details").path("thinking_tokens").asInt(0));
        out.put("total_tokens", input + output);
        return out;
    }

    /** An output item's id: its prefix, random hex digits, and the sink's tail (which replica holds it). */
    private String itemId(String prefix) {
        return prefix + hex(ResponseItems.ID_RANDOM) + itemSink.idTail();
    }

    /** {@code length} random hex digits (the random part of the ids this router mints). */
    static String hex(int length) {
        byte[] bytes = new byte[(length + 1) / 2];
        IDS.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).substring(0, length);
    }

    private static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }
}
