package dev.zerolayer.router.answer;

import dev.zerolayer.router.wire.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses output items this router answered recently, by id, so that a client's next request may name them by
 * {@code item_reference} (the Vercel AI SDK does by default): the most recent {@code capacity} items, each for
 * {@code ttl}, in this process's memory only (never in an event or a log; another router replica has its own). An
 * unknown or expired reference is OpenAI's own 404.
 */
public final class ResponseItems {

    private final int capacity;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Stored> items;

    private record Stored(ObjectNode item, long expiresAtMillis) {
    }

    public ResponseItems(int capacity, Duration ttl, Clock clock) {
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

    /** Keeps a finished output item (one with an id). */
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
     * @throws ApiException 404 for a reference to an item this router does not hold
     */
    public void resolve(ObjectNode request) {
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
                throw new ApiException(404, "not_found_error", "Item with id '" + id + "' not found. This gateway "
                        + "keeps the items it answered for " + ttl.toMinutes() + " minutes; send the item itself "
                        + "(or set 'store' to false), or remove this item from your input.");
            }
            input.set(i, stored.item().deepCopy());
        }
    }

    public int size() {
        synchronized (items) {
            return items.size();
        }
    }
}
