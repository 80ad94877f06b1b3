package dev.zerolayer.router.answer;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses answers kept for {@code previous_response_id}, reading and deleting, per API key: each turn holds the
 * input items its request added and the response object, kept {@code ttl} after its last use, the least recently
 * used dropped beyond about {@code maxBytes} of memory or {@code maxCount} answers.
 */
final class StoredResponses {

    /**
     * A stored response: the one it went on from (null: none), the key it was answered to, the input items its request
     * added (and each one's id: its own, or one minted when it was kept), the response object as answered and its
     * output items.
     */
    static final class StoredResponse {
        final String previousId;
        final String keyId;
        final List<ObjectNode> input;
        final List<String> inputIds;
        final ObjectNode response;
        final List<ObjectNode> output;
        final long weight;
        long expiresAtMillis;

        StoredResponse(String previousId, String keyId, List<ObjectNode> input, ObjectNode response,
                long expiresAtMillis) {
            this.previousId = previousId;
            this.keyId = keyId;
            this.input = input;
            this.inputIds = input.stream().map(StoredResponses::itemId).toList();
            this.response = response;
            this.output = inputItems(response.get("output"));
            this.weight = weight(input) + weight(List.of(response));
            this.expiresAtMillis = expiresAtMillis;
        }
    }

    /** The most turns a chain of responses is followed back (a conversation longer than this is not found). */
    static final int MAX_TURNS = 10_000;

    private final Duration ttl;
    private final long maxBytes;
    private final int maxCount;
    private final Clock clock;
    private final Map<String, StoredResponse> responses = new LinkedHashMap<>(64, 0.75f, true);
    private long weight;

    StoredResponses(Duration ttl, long maxBytes, int maxCount, Clock clock) {
        this.ttl = ttl;
        this.maxBytes = maxBytes;
        this.maxCount = maxCount;
        this.clock = clock;
    }

    /**
     * Keeps a finished response to {@code keyId} (unless its request set {@code store} to false): the input items its
     * request added to the conversation it went on from, and the response object with its output items.
     */
    void keep(String keyId, ObjectNode request, ObjectNode response) {
        String responseId = response.path("id").asString("");
        if (!request.path("store").asBoolean(true) || responseId.isEmpty()) {
            return;
        }
        JsonNode previous = request.get("previous_response_id");
        String previousId = previous != null && previous.isString() ? previous.stringValue() : null;
        List<ObjectNode> input = inputItems(request.get("input"));
        int before = 0;
        if (previousId != null) {
            synchronized (responses) {
                Deque<StoredResponse> turns = turns(previousId, keyId, clock.millis());
                before = turns == null ? -1 : turns.stream().mapToInt(t -> t.input.size() + t.output.size()).sum();
            }
        }
        if (before < 0 || before > input.size()) {
            // the conversation before it went meanwhile: this response keeps its whole input
            previousId = null;
            before = 0;
        }
        // copied outside the lock (the other event loop may be resolving a conversation meanwhile)
        List<ObjectNode> added = new ArrayList<>(input.size() - before);
        for (int i = before; i < input.size(); i++) {
            added.add(input.get(i).deepCopy());
        }
        StoredResponse stored = new StoredResponse(previousId, keyId, List.copyOf(added), response.deepCopy(),
                clock.millis() + ttl.toMillis());
        synchronized (responses) {
            StoredResponse replaced = responses.put(responseId, stored);
            weight += stored.weight - (replaced == null ? 0 : replaced.weight);
            Iterator<StoredResponse> eldest = responses.values().iterator();
            while ((weight > maxBytes || responses.size() > Math.max(maxCount, 1))
                    && eldest.hasNext()) {
                StoredResponse dropped = eldest.next();
                if (dropped == stored) {
                    break;
                }
                weight -= dropped.weight;
                eldest.remove();
            }
        }
    }

    /** A kept response answered to {@code keyId}, or null. */
    StoredResponse find(String id, String keyId) {
        synchronized (responses) {
            StoredResponse stored = responses.get(id);
            return stored != null && stored.expiresAtMillis >= clock.millis() && stored.keyId.equals(keyId)
                    ? stored : null;
        }
    }

    /** Forgets a kept response answered to {@code keyId}; the one forgotten, or null (none, or expired already). */
    StoredResponse remove(String id, String keyId) {
        synchronized (responses) {
            StoredResponse stored = responses.get(id);
            if (stored == null || !stored.keyId.equals(keyId)) {
                return null;
            }
            responses.remove(id);
            weight -= stored.weight;
            return stored.expiresAtMillis < clock.millis() ? null : stored;
        }
    }

    /** The items of a conversation up to and with response {@code id}, oldest first; null when any turn is gone. */
    List<ObjectNode> history(String id, String keyId) {
        Deque<StoredResponse> turns;
        long now = clock.millis();
        synchronized (responses) {
            turns = turns(id, keyId, now);
            if (turns == null) {
                return null;
            }
            // a conversation in use is kept: each of its turns for ttl from now
            turns.forEach(turn -> turn.expiresAtMillis = now + ttl.toMillis());
        }
        List<ObjectNode> items = new ArrayList<>();
        for (StoredResponse turn : turns) {
            items.addAll(turn.input);
            items.addAll(turn.output);
        }
        return items;
    }

    /**
     * The input items response {@code id} was answered from, oldest first: each earlier turn's input and output, then
     * its own input; each with its id, a message in the API's item form ({@code type}, content parts, status). Null
     * when it, or any turn before it, is gone.
     */
    List<ObjectNode> inputOf(String id, String keyId) {
        Deque<StoredResponse> turns;
        synchronized (responses) {
            turns = turns(id, keyId, clock.millis());
        }
        if (turns == null) {
            return null;
        }
        List<ObjectNode> items = new ArrayList<>();
        StoredResponse last = turns.peekLast();
        for (StoredResponse turn : turns) {
            for (int i = 0; i < turn.input.size(); i++) {
                items.add(listed(turn.input.get(i), turn.inputIds.get(i)));
            }
            if (turn != last) {
                turn.output.forEach(item -> items.add(listed(item, item.path("id").asString(""))));
            }
        }
        return items;
    }

    /** An item as the API lists it: its id, and a message's type, content parts and status filled in. */
    private static ObjectNode listed(ObjectNode item, String id) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("id", id);
        boolean message = item.path("type").asString("message").equals("message") && item.has("role");
        if (message) {
            out.put("type", "message");
        }
        item.properties().forEach(field -> {
            if (!field.getKey().equals("id")) {
                out.set(field.getKey(), field.getValue().deepCopy());
            }
        });
        if (message) {
            JsonNode content = item.get("content");
            if (content != null && content.isString()) {
                String part = item.path("role").asString("").equals("assistant") ? "output_text" : "input_text";
                ObjectNode text = out.putArray("content").addObject().put("type", part)
                        .put("text", content.stringValue());
                if (part.equals("output_text")) {
                    text.putArray("annotations");
                }
            }
            if (!out.has("status")) {
                out.put("status", "completed");
            }
        }
        return out;
    }

    /** An input item's own id, or a new one with its kind's prefix ({@code msg_} for a message). */
    private static String itemId(ObjectNode item) {
        String own = item.path("id").asString("");
        if (!own.isEmpty()) {
            return own;
        }
        String type = item.path("type").asString("message");
        String prefix = switch (type) {
            case "message" -> "msg_";
            case "function_call" -> "fc_";
            case "function_call_output" -> "fco_";
            case "reasoning" -> "rs_";
            default -> "item_";
        };
        return prefix + ResponsesWriter.hex(ResponseItems.ID_RANDOM);
    }

    /**
     * The turns of the conversation up to and with response {@code id}, oldest first, answered to {@code keyId};
     * null when any is gone. The caller holds the lock.
     */
    private Deque<StoredResponse> turns(String id, String keyId, long now) {
        Deque<StoredResponse> turns = new ArrayDeque<>();
        for (String at = id; at != null; ) {
            StoredResponse stored = responses.get(at);
            if (stored == null || stored.expiresAtMillis < now || !stored.keyId.equals(keyId)
                    || turns.size() >= MAX_TURNS) {
                return null;
            }
            turns.addFirst(stored);
            at = stored.previousId;
        }
        return turns;
    }

    /** A request's {@code input} as items: a string is one user message (as the API reads it). */
    static List<ObjectNode> inputItems(JsonNode input) {
        List<ObjectNode> items = new ArrayList<>();
        if (input instanceof ArrayNode array) {
            array.forEach(item -> {
                if (item instanceof ObjectNode object) {
                    items.add(object);
                }
            });
        } else if (input != null && input.isString()) {
            ObjectNode message = JsonNodeFactory.instance.objectNode()
                    .put("type", "message").put("role", "user");
            message.putArray("content").addObject().put("type", "input_text").put("text", input.stringValue());
            items.add(message);
        }
        return items;
    }

    /** About the heap items take: a string's characters and object, a container's and each property's overhead. */
    static long weight(List<? extends JsonNode> items) {
        long total = 0;
        for (JsonNode item : items) {
            total += weight(item);
        }
        return total;
    }

    private static long weight(JsonNode node) {
        if (node.isString()) {
            return 56 + node.stringValue().length();
        }
        long total = node.isContainer() ? 64 : 16;
        if (node.isContainer()) {
            for (JsonNode child : node.values()) {
                total += weight(child);
            }
            if (node.isObject()) {
                for (String name : node.propertyNames()) {
                    total += 48 + name.length();
                }
            }
        }
        return total;
    }

    /** Answers kept now. */
    int size() {
        synchronized (responses) {
            return responses.size();
        }
    }
}
