package dev.zerolayer.router.answer;

import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.router.wire.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses output items and answers this router kept recently, so that a client's next request may name an item
 * by {@code item_reference} (the Vercel AI SDK does by default) or go on from an answer by {@code previous_response_id}
 * (its conversation's items come before the new input; instructions are not carried, as in OpenAI's API), or read or
 * delete a kept answer by its id: the most recent {@code capacity} items each for {@code ttl}, and the answers of
 * {@link StoredResponses}, per API key, in this process's memory only (never in an event or a log). Each id ends with
 * this replica's address and the minute it was minted, sealed for its peers, so a reference reaching another replica
 * names the one to pass it to while it can still hold it; an unknown or expired item is OpenAI's own 404, a previous
 * response its 400 {@code previous_response_not_found}.
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

    private final StoredResponses responses;

    private record Stored(ObjectNode item, String keyId, long expiresAtMillis) {
    }

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
     * @param responseBytes about how much memory kept answers take at most
     * @param seal          opens the tails of peers' item ids and seals this replica's own
     * @param self          where this replica answers its peers (empty until its server listens: ids get no tail)
     */
    public ResponseItems(int capacity, Duration ttl, long responseBytes, Clock clock, SealedAddress seal,
            Supplier<Optional<URI>> self) {
        this.responses = new StoredResponses(ttl, responseBytes, capacity, clock);
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
                responses.keep(keyId, request, response);
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
                    throw notHere(id, passedOn, new ApiException(404, "not_found_error", "Item with id '" + id
                            + "' not found. This gateway keeps the items it answered for " + ttl.toMinutes()
                            + " minutes; send the item itself (or set 'store' to false), or remove this item from your "
                            + "input."));
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
        List<ObjectNode> history = responses.history(id, keyId);
        if (history == null) {
            throw notHere(id, passedOn, new ApiException(400, "invalid_request_error", "Previous response with id '"
                    + id + "' not found. This gateway keeps a stored response for " + ttl.toMinutes() + " minutes "
                    + "after its last use; send the whole conversation in 'input' instead.", "previous_response_id",
                    "previous_response_not_found"));
        }
        ArrayNode whole = request.arrayNode();
        history.forEach(item -> whole.add(item.deepCopy()));
        StoredResponses.inputItems(own).forEach(whole::add);
        request.set("input", whole);
    }

    /**
     * A stored response as it was answered ({@code GET /v1/responses/{id}}).
     *
     * @throws ItemHeldElsewhere when another replica answered it (unless the request was passed on)
     * @throws ApiException      OpenAI's 404 when no replica can be asked for it, or it was answered to another key
     */
    public ObjectNode retrieve(String id, boolean passedOn, String keyId) {
        StoredResponses.StoredResponse stored = responses.find(id, keyId);
        if (stored == null) {
            throw notHere(id, passedOn, responseNotFound(id));
        }
        return stored.response.deepCopy();
    }

    /**
     * A page of the input items a stored response was answered from ({@code GET /v1/responses/{id}/input_items}): its
     * conversation's earlier turns, input and output, then its own input.
     *
     * @throws ItemHeldElsewhere when another replica answered it (unless the request was passed on)
     * @throws ApiException      OpenAI's 404 when no replica can be asked for it, it was answered to another key, or a
     *                           turn before it is gone
     */
    public ObjectNode inputItems(String id, boolean passedOn, String keyId, InputItemsQuery query) {
        List<ObjectNode> input = responses.inputOf(id, keyId);
        if (input == null) {
            throw notHere(id, passedOn, responseNotFound(id));
        }
        return query.page(input);
    }

    /**
     * Forgets a stored response and its output items ({@code DELETE /v1/responses/{id}}); turns that went on from it
     * can no longer be gone on from.
     *
     * @throws ItemHeldElsewhere when another replica answered it (unless the request was passed on)
     * @throws ApiException      OpenAI's 404 when no replica can be asked for it, or it was answered to another key
     */
    public ObjectNode delete(String id, boolean passedOn, String keyId) {
        StoredResponses.StoredResponse stored = responses.remove(id, keyId);
        if (stored == null) {
            throw notHere(id, passedOn, responseNotFound(id));
        }
        synchronized (items) {
            stored.output.forEach(item -> items.remove(item.path("id").asString("")));
        }
        ObjectNode deleted = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        return deleted.put("id", id).put("object", "response").put("deleted", true);
    }

    private static ApiException responseNotFound(String id) {
        return new ApiException(404, "not_found_error", "Response with id '" + id + "' not found.");
    }

    /**
     * What a request naming {@code id}, which this replica does not hold, gets: passed to the replica the id names
     * (unless it was passed here already), else {@code unknown}.
     */
    private RuntimeException notHere(String id, boolean passedOn, ApiException unknown) {
        Optional<URI> holder = passedOn ? Optional.empty() : holder(id);
        return holder.isPresent() ? new ItemHeldElsewhere(holder.get(), unknown) : unknown;
    }

    /** Stored responses held now. */
    public int responses() {
        return responses.size();
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
