package dev.zerolayer.platform.view;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.platform.events.EventReader;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The latest value per key of one compacted topic, held in memory and kept current by its binding (anonymous group,
 * from the earliest offset, every partition): a restarted reader rebuilds it from the beginning. A tombstone removes
 * the key; a poison record is dead-lettered and leaves the view as it was.
 */
public class CompactedView<T extends Event> implements Consumer<Message<byte[]>> {

    private final TopicSpec<T> topic;
    private final EventReader reader;
    private final Clock clock;
    private final Map<String, T> values = new ConcurrentHashMap<>();
    private final AtomicLong applied = new AtomicLong();
    private volatile Instant lastUpdate;
    private final java.util.List<Consumer<T>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Instant createdAt;
    private volatile java.time.Duration expectedUpdateInterval;

    /** @param topic the compacted topic; its records decode to the topic's event type */
    public CompactedView(TopicSpec<T> topic, EventReader reader, Clock clock) {
        this.topic = topic;
        this.reader = reader;
        this.clock = clock;
        this.createdAt = clock.instant();
    }

    /**
     * Declares that the topic's writer updates it at least this often (heartbeats), so a longer silence means the
     * view is stale; without it a view is stale only while nothing has arrived since start.
     */
    public CompactedView<T> expectUpdatesEvery(java.time.Duration interval) {
        this.expectedUpdateInterval = interval;
        return this;
    }

    /** Since when the view is stale (nothing since start, or silent past its expected update interval); empty when current. */
    public Optional<Instant> staleSince() {
        Instant last = lastUpdate;
        if (last == null) {
            return Optional.of(createdAt);
        }
        java.time.Duration interval = expectedUpdateInterval;
        if (interval != null && last.plus(interval).isBefore(clock.instant())) {
            return Optional.of(last.plus(interval));
        }
        return Optional.empty();
    }

    @Override
    public void accept(Message<byte[]> message) {
        if (EventReader.isTombstone(message)) {
            String key = EventReader.keyOf(message);
            if (key != null) {
                values.remove(key);
            }
        } else {
            T event = reader.read(message, topic);
            values.put(event.key(), event);
            listeners.forEach(listener -> listener.accept(event));
        }
        applied.incrementAndGet();
        lastUpdate = clock.instant();
    }

    /** Calls the listener with every value applied from now on (on the consumer thread). */
    public void onUpdate(Consumer<T> listener) {
        listeners.add(listener);
    }

    public Optional<T> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    public Collection<T> values() {
        return values.values();
    }

    public Map<String, T> snapshot() {
        return Map.copyOf(values);
    }

    public int size() {
        return values.size();
    }

    public String topic() {
        return topic.name();
    }

    /** Records applied since start, tombstones included. */
    public long applied() {
        return applied.get();
    }

    /** When the view last changed, or empty when nothing has arrived since start. */
    public Optional<Instant> lastUpdate() {
        return Optional.ofNullable(lastUpdate);
    }
}
