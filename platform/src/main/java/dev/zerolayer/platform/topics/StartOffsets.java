package dev.zerolayer.platform.topics;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * Where topics stood when a service started, each partition's earliest and end offset: a reader has caught up once
 * every partition that held records then is read up to that end (records written later do not move the target).
 */
public record StartOffsets(Map<TopicPartition, Long> earliest, Map<TopicPartition, Long> end) {

    public StartOffsets {
        earliest = Map.copyOf(earliest);
        end = Map.copyOf(end);
    }

    /** The topics these offsets cover. */
    public Set<String> topics() {
        Set<String> topics = new LinkedHashSet<>();
        end.keySet().forEach(partition -> topics.add(partition.topic()));
        return topics;
    }

    /** The offsets of one topic alone. */
    public StartOffsets of(String topic) {
        Map<TopicPartition, Long> topicEarliest = new HashMap<>();
        Map<TopicPartition, Long> topicEnd = new HashMap<>();
        end.forEach((partition, offset) -> {
            if (partition.topic().equals(topic)) {
                topicEnd.put(partition, offset);
                topicEarliest.put(partition, earliest.getOrDefault(partition, 0L));
            }
        });
        return new StartOffsets(topicEarliest, topicEnd);
    }

    /**
     * Whether every partition is read up to its end of the start: a partition is done when it held nothing then (end
     * at or below its earliest offset) or its reader's next offset reached that end; {@code position} answers null
     * for a partition not read yet.
     */
    public boolean reachedBy(Function<TopicPartition, Long> position) {
        for (Map.Entry<TopicPartition, Long> target : end.entrySet()) {
            long start = earliest.getOrDefault(target.getKey(), 0L);
            if (target.getValue() <= start) {
                continue;
            }
            Long next = position.apply(target.getKey());
            if (next == null || next < target.getValue()) {
                return false;
            }
        }
        return true;
    }
}
