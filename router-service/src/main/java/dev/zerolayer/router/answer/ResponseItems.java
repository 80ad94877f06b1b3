package dev.zerolayer.router.answer;

import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.router.wire.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses output items this router answered recently, by id, so that a client's next request may name them by
 * {@code item_reference} (the Vercel AI SDK does by default): the most recent {@code capacity} items, each for
 * {@code ttl}, in this process's memory only (never in an event or a log). Each id ends with this replica's address
 * and the minute it was minted, sealed for its peers, so a reference reaching another replica names the one to pass it
 * to while it can still hold it; an unknown or expired reference is OpenAI's own 404.
 */
public final class ResponseItems implements ItemSink {

    /** The random part of an item id after its prefix ({@code msg_}, {@code fc_}, {@code rs_}): hex digits. */
    public static final int ID_RANDOM = 24;

    private final int capacity;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Stored> items;
    private final SealedAddress seal;
    private final Supplier<Optional<URI>> self;
    private volatile Tail tail;

    private record Stored(ObjectNode item, long expiresAtMillis) {
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

    @Override
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

    @Override
    public void remember(ObjectNode item) {
        String id = item.path("id").asString("");
        if (id.isEmpty()) {
            return;
        }
        Stored stored = new Stored(item.deepCopy(), clock.millis() + ttl.toMillis());
        synchronized (items) {
            items.put(id, stored);
        }
    }

    /**
     * Replaces every {@code item_reference} of a request's {@code input} with the item it names.
     *
     * @param passedOn whether another replica passed the request here (it is never passed on again)
     * @throws ItemHeldElsewhere for a reference to an item another replica answered (unless passed on)
     * @throws ApiException      404 for a reference to an item no replica can be asked for
     */
    public void resolve(ObjectNode request, boolean passedOn) {
        if (!(request.get("input") instanceof ArrayNode input)) {
            return;
        }
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
            if (stored == null || stored.expiresAtMillis() < clock.millis()) {
                ApiException unknown = new ApiException(404, "not_found_error", "Item with id '" + id + "' not "
                        + "found. This gateway keeps the items it answered for " + ttl.toMinutes() + " minutes; send "
                        + "the item itself (or set 'store' to false), or remove this item from your input.");
                Optional<URI> holder = passedOn ? Optional.empty() : holder(id);
                throw holder.isPresent() ? new ItemHeldElsewhere(holder.get(), unknown) : unknown;
            }
            input.set(i, stored.item().deepCopy());
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
