package dev.zerolayer.contracts.topics;

import dev.zerolayer.contracts.event.Event;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One topic of the catalogue: its name, what its key means, the event type {@code T} it carries (so a reader takes the
 * type from the topic and cannot name another), its single writer, its readers, cleanup policy, partitions and
 * retention.
 *
 * @param <T> the event type every record of the topic decodes to
 */
public record TopicSpec<T extends Event>(
        String name,
        String keyMeaning,
        Class<T> eventType,
        String writer,
        List<String> readers,
        CleanupPolicy cleanupPolicy,
        int partitions,
        Duration retention) {

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(eventType, "eventType");
        readers = List.copyOf(readers);
    }

    public boolean compacted() {
        return cleanupPolicy == CleanupPolicy.COMPACT;
    }

    /** Topic-level Kafka configs this topic is created with. */
    public Map<String, String> kafkaConfigs() {
        if (compacted()) {
            // segments roll every 10 minutes or 64 MiB (Kafka's defaults: 7 days or 1 GiB), so the cleaner compacts a
            // busy topic within minutes: a reader that restores from it reads about its live keys, not the history
            return Map.of(
                    "cleanup.policy", cleanupPolicy.kafkaValue(),
                    "min.compaction.lag.ms", "0",
                    "delete.retention.ms", Long.toString(Duration.ofDays(1).toMillis()),
                    "segment.ms", Long.toString(Duration.ofMinutes(10).toMillis()),
                    "segment.bytes", Integer.toString(64 * 1024 * 1024));
        }
        return Map.of(
                "cleanup.policy", cleanupPolicy.kafkaValue(),
                "retention.ms", Long.toString(retention.toMillis()));
    }

    /** The dead-letter topic for poison records of this topic read by the given consumer group. */
    public String deadLetterTopic(String consumerGroup) {
        return Topics.deadLetterTopic(name, consumerGroup);
    }
}
