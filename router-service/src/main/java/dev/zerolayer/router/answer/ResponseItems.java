package dev.zerolayer.router.answer;

import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.router.wire.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses output items and stored responses this router answered recently, so that a client's next request may
 * name an item by {@code item_reference} (the Vercel AI SDK does by default) or go on from a response by
 * {@code previous_response_id} (its input and output items come before the new input; instructions are not carried,
 * as in OpenAI's API; a stored response may also be read or deleted by its id): the most recent {@code capacity} items
 * each for {@code ttl}, and responses asked with
 * {@code store} not false for {@code ttl} after their last use, the least recently used dropped beyond
 * {@code responseBytes} or {@code capacity}; in this process's memory only (never in an event or a log). Each id ends with this replica's
 * address and the minute it was minted, sealed for its peers, so a reference reaching another replica names the one to
 * pass it to while it can still hold it; an unknown or expired item is OpenAI's own 404, a response its 400
 * {@code previous_response_not_found}.
 */
public final class ResponseItems {

    /** The random part of an item id after its prefix ({@code msg_}, {@code fc_}, {@code rs_}): hex digits. */
    public static final int ID_RANDOM = 24;

    private final int capacity;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Stored> items;
    private final SealedAddress seal;
    private final Supplier<Optional<URI>> self;
    private volatile Tail tail;

    private record Stored(ObjectNode item, String keyId, long expiresAtMillis) {
    }

    /**
     * A stored response: the one it went on from (null: none), the key it was answered to, the input items its request
     * added, the response object as answered and its output items.
     */
    private static final class StoredResponse {
        final String previousId;
        final String keyId;
        final List<ObjectNode> input;
        final ObjectNode response;
        final List<ObjectNode> output;
        final long weight;
        long expiresAtMillis;

        StoredResponse(String previousId, String keyId, List<ObjectNode> input, ObjectNode response,
                long expiresAtMillis) {
            this.previousId = previousId;
            this.keyId = keyId;
            this.input = input;
            this.response = response;
            this.output = inputItems(response.get("output"));
            this.weight = weight(input) + weight(List.of(response));
            this.expiresAtMillis = expiresAtMillis;
        }
    }

    /** The most turns a chain of responses is followed back (a conversation longer than this is not found). */
    static final int MAX_TURNS = 10_000;

    private final long responseBytes;
    private final Map<String, StoredResponse> responses = new LinkedHashMap<>(64, 0.75f, true);
    private long responsesWeight;

    /** The id tail of the items minted in one minute (sealed once per minute, not per item). */
    private record Tail(long minute, String token) {
    }

    /** How long a tail's time may precede an item minted with it: the tail is sealed at the minute's start. */
    private static final Duration TAIL_SPAN = Duration.ofMinutes(1);

    /**
     * @param seal opens the tails of peers' item ids and seals this replica's own
     * @param self where this replica answers its peers (empty until its server listens: ids get no tail)
     */
    public ResponseItems(int capacity, Duration ttl, Clock clock, SealedAddress seal, Supplier<Optional<URI>> self) {
        this(capacity, ttl, 64L << 20, clock, seal, self);
    }

    /**
     * @param responseBytes about how many bytes of stored responses (their items' text) are kept at most
     * @param seal          opens the tails of peers' item ids and seals this replica's own
     * @param self          where this replica answers its peers (empty until its server listens: ids get no tail)
     */
    public ResponseItems(int capacity, Duration ttl, long responseBytes, Clock clock, SealedAddress seal,
            Supplier<Optional<URI>> self) {
        this.responseBytes = responseBytes;
        this.seal = seal;
        this.self = self;
        this.capacity = capacity;
        this.ttl = ttl;
        this.clock = clock;
        this.items = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Stored> eldest) {
                return size() > ResponseItems.this.capacity;
            }
        };
    }

    /** Appended to every output item and response id this replica mints (says which replica holds it). */
    public String idTail() {
        long minute = clock.millis() / TAIL_SPAN.toMillis();
        Tail current = tail;
        if (current == null || current.minute() != minute) {
            Optional<URI> address = self.get();
            if (address.isEmpty()) {
                return "";
            }
            current = new Tail(minute, seal.seal(address.get(), Instant.ofEpochMilli(minute * TAIL_SPAN.toMillis())));
            tail = current;
        }
        return current.token();
    }

    /**
     * Where the answers to one API key's request keep their items and the response: only that key may name them later
     * (another key's reference is unknown to it, as an ID from another OpenAI project is).
     */
    public ItemSink forKey(String keyId) {
        return new ItemSink() {
            @Override
            public void remember(ObjectNode item) {
                ResponseItems.this.remember(keyId, item);
            }

            @Override
            public void answered(ObjectNode request, ObjectNode response) {
                ResponseItems.this.answered(keyId, request, response);
            }

            @Override
            public String idTail() {
                return ResponseItems.this.idTail();
            }
        };
    }

    void remember(String keyId, ObjectNode item) {
        String id = item.path("id").asString("");
        if (id.isEmpty()) {
            return;
        }
        Stored stored = new Stored(item.deepCopy(), keyId, clock.millis() + ttl.toMillis());
        synchronized (items) {
            items.put(id, stored);
        }
    }

    /**
     * Replaces every {@code item_reference} of a request's {@code input} with the item it names, then puts the items
     * of the conversation its {@code previous_response_id} names (each turn's input and output, oldest first) before
     * its input; the field stays (the answer echoes it, the translation leaves it behind).
     *
     * @param passedOn whether another replica passed the request here (it is never passed on again)
     * @param keyId    the API key asking: it names only items and responses answered to it
     * @throws ItemHeldElsewhere for a reference to an item or response another replica answered (unless passed on)
     * @throws ApiException      404 for an item, 400 for a response, no replica can be asked for
     */
    public void resolve(ObjectNode request, boolean passedOn, String keyId) {
        if (request.get("input") instanceof ArrayNode input) {
            for (int i = 0; i < input.size(); i++) {
                JsonNode item = input.get(i);
                if (!item.path("type").asString("").equals("item_reference")) {
                    continue;
                }
                String id = item.path("id").asString("");
                Stored stored;
                synchronized (items) {
                    stored = items.get(id);
                }
                if (stored == null || stored.expiresAtMillis() < clock.millis() || !stored.keyId().equals(keyId)) {
                    ApiException unknown = new ApiException(404, "not_found_error", "Item with id '" + id + "' not "
                            + "found. This gateway keeps the items it answered for " + ttl.toMinutes() + " minutes; "
                            + "send the item itself (or set 'store' to false), or remove this item from your input.");
                    Optional<URI> holder = passedOn ? Optional.empty() : holder(id);
                    throw holder.isPresent() ? new ItemHeldElsewhere(holder.get(), unknown) : unknown;
                }
                input.set(i, stored.item().deepCopy());
            }
        }
        JsonNode previous = request.get("previous_response_id");
        if (previous == null || previous.isNull()) {
            return;
        }
        if (!previous.isString() || previous.stringValue().isEmpty()) {
            throw new ApiException(400, "invalid_request_error", "previous_response_id: Input should be a non-empty "
                    + "string", "previous_response_id", null);
        }
        JsonNode own = request.get("input");
        if (own != null && !own.isNull() && !own.isString() && !own.isArray()) {
            return; // not an input at all: the parser says so
        }
        String id = previous.stringValue();
        List<ObjectNode> history = history(id, keyId);
        if (history == null) {
            ApiException unknown = new ApiException(400, "invalid_request_error", "Previous response with id '" + id
                    + "' not found. This gateway keeps a stored response for " + ttl.toMinutes() + " minutes after "
                    + "its last use; send the whole conversation in 'input' instead.", "previous_response_id",
                    "previous_response_not_found");
            Optional<URI> holder = passedOn ? Optional.empty() : holder(id);
            throw holder.isPresent() ? new ItemHeldElsewhere(holder.get(), unknown) : unknown;
        }
        ArrayNode whole = request.arrayNode();
        history.forEach(item -> whole.add(item.deepCopy()));
        inputItems(own).forEach(whole::add);
        request.set("input", whole);
    }

    /**
     * Keeps a finished response to {@code keyId} (unless its request set {@code store} to false): the input items its
     * request added to the conversation it went on from, and its output items.
     */
    void answered(String keyId, ObjectNode request, ObjectNode response) {
        String responseId = response.path("id").asString("");
        if (!request.path("store").asBoolean(true) || responseId.isEmpty()) {
            return;
        }
        JsonNode previous = request.get("previous_response_id");
        String previousId = previous != null && previous.isString() ? previous.stringValue() : null;
        List<ObjectNode> input = inputItems(request.get("input"));
        int before;
        synchronized (responses) {
            before = previousId == null ? 0 : turnsItems(previousId, keyId);
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
            responsesWeight += stored.weight - (replaced == null ? 0 : replaced.weight);
            Iterator<StoredResponse> eldest = responses.values().iterator();
            while ((responsesWeight > responseBytes || responses.size() > Math.max(capacity, 1))
                    && eldest.hasNext()) {
                StoredResponse dropped = eldest.next();
                if (dropped == stored) {
                    break;
                }
                responsesWeight -= dropped.weight;
                eldest.remove();
            }
        }
    }

    /**
     * A stored response as it was answered ({@code GET /v1/responses/{id}}).
     *
     * @throws ItemHeldElsewhere when another replica answered it (unless the request was passed on)
     * @throws ApiException      OpenAI's 404 when no replica can be asked for it, or it was answered to another key
     */
    public ObjectNode retrieve(String id, boolean passedOn, String keyId) {
        StoredResponse stored;
        synchronized (responses) {
            stored = responses.get(id);
            if (stored != null && (stored.expiresAtMillis < clock.millis() || !stored.keyId.equals(keyId))) {
                stored = null;
            }
        }
        if (stored == null) {
            throw responseNotFound(id, passedOn);
        }
        return stored.response.deepCopy();
    }

    /**
     * Forgets a stored response and its output items ({@code DELETE /v1/responses/{id}}); turns that went on from it
     * can no longer be gone on from.
     *
     * @throws ItemHeldElsewhere when another replica answered it (unless the request was passed on)
     * @throws ApiException      OpenAI's 404 when no replica can be asked for it, or it was answered to another key
     */
    public ObjectNode delete(String id, boolean passedOn, String keyId) {
        StoredResponse stored;
        synchronized (responses) {
            stored = responses.get(id);
            if (stored != null && !stored.keyId.equals(keyId)) {
                stored = null;
            } else if (stored != null) {
                responses.remove(id);
                responsesWeight -= stored.weight;
                if (stored.expiresAtMillis < clock.millis()) {
                    stored = null; // gone already, only not yet dropped
                }
            }
        }
        if (stored == null) {
            throw responseNotFound(id, passedOn);
        }
        synchronized (items) {
            stored.output.forEach(item -> items.remove(item.path("id").asString("")));
        }
        ObjectNode deleted = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        return deleted.put("id", id).put("object", "response").put("deleted", true);
    }

    private RuntimeException responseNotFound(String id, boolean passedOn) {
        ApiException unknown = new ApiException(404, "not_found_error", "Response with id '" + id + "' not found.");
        Optional<URI> holder = passedOn ? Optional.empty() : holder(id);
        return holder.isPresent() ? new ItemHeldElsewhere(holder.get(), unknown) : unknown;
    }

    /** The items of a conversation up to and with response {@code id}, oldest first; null when any turn is gone. */
    private List<ObjectNode> history(String id, String keyId) {
        Deque<StoredResponse> turns = new ArrayDeque<>();
        long now = clock.millis();
        synchronized (responses) {
            for (String at = id; at != null; ) {
                StoredResponse stored = responses.get(at);
                if (stored == null || stored.expiresAtMillis < now || !stored.keyId.equals(keyId)
                        || turns.size() >= MAX_TURNS) {
                    return null;
                }
                turns.addFirst(stored);
                at = stored.previousId;
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

    /** How many items the conversation up to and with response {@code id} holds; -1 when any turn is gone. */
    private int turnsItems(String id, String keyId) {
        int count = 0;
        int turns = 0;
        for (String at = id; at != null; turns++) {
            StoredResponse stored = responses.get(at);
            if (stored == null || !stored.keyId.equals(keyId) || turns >= MAX_TURNS) {
                return -1;
            }
            count += stored.input.size() + stored.output.size();
            at = stored.previousId;
        }
        return count;
    }

    /** A request's {@code input} as items: a string is one user message (as the API reads it). */
    private static List<ObjectNode> inputItems(JsonNode input) {
        List<ObjectNode> items = new ArrayList<>();
        if (input instanceof ArrayNode array) {
            array.forEach(item -> {
                if (item instanceof ObjectNode object) {
                    items.add(object);
                }
            });
        } else if (input != null && input.isString()) {
            ObjectNode message = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode()
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

    /** Stored responses held now. */
    public int responses() {
        synchronized (responses) {
            return responses.size();
        }
    }

    /**
     * The replica an item id says answered it, when that is another one and the item may still be there (an id older
     * than the item lifetime names nobody: its replica may be gone and its address another process's).
     */
    private Optional<URI> holder(String id) {
        int tail = id.indexOf('_') + 1 + ID_RANDOM;
        if (tail <= ID_RANDOM || id.length() <= tail) {
            return Optional.empty();
        }
        Instant oldest = clock.instant().minus(ttl).minus(TAIL_SPAN);
        return seal.open(id.substring(tail)).filter(sealed -> !sealed.sealedAt().isBefore(oldest))
                .map(SealedAddress.Sealed::address).filter(address -> !address.equals(self.get().orElse(null)));
    }

    /** Proof, for the replica this one passes a request to, that a peer passed it: this replica's address sealed now. */
    public Optional<String> peerProof() {
        return self.get().map(address -> seal.seal(address, clock.instant()));
    }

    /**
     * Whether {@code proof} shows that a peer replica passed the request here: sealed under the shared key by another
     * replica within {@link #TAIL_SPAN} (a client cannot make one; one seen in passing soon goes stale).
     */
    public boolean fromPeer(String proof) {
        if (proof == null || proof.isEmpty()) {
            return false;
        }
        Instant now = clock.instant();
        return seal.open(proof).filter(sealed -> !sealed.address().equals(self.get().orElse(null)))
                .filter(sealed -> !sealed.sealedAt().isBefore(now.minus(TAIL_SPAN))
                        && !sealed.sealedAt().isAfter(now.plus(TAIL_SPAN)))
                .isPresent();
    }

    public int size() {
        synchronized (items) {
            return items.size();
        }
    }
}
