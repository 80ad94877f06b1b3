package dev.zerolayer.platform.topics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A reader has caught up when every partition that held records at the start is read up to its end of the start; a
 * partition that held nothing then is done from the beginning.
 */
class StartOffsetsTest {

    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);
    private static final TopicPartition B0 = new TopicPartition("b", 0);

    private final StartOffsets start = new StartOffsets(Map.of(A0, 0L, A1, 3L, B0, 0L), Map.of(A0, 5L, A1, 3L, B0, 2L));

    @Test
    void everyPartitionThatHeldRecordsMustBeReadToItsEndOfTheStart() {
        assertThat(start.reachedBy(Map.<TopicPartition, Long>of()::get)).isFalse();
        assertThat(start.reachedBy(Map.of(A0, 5L)::get)).isFalse();
        assertThat(start.reachedBy(Map.of(A0, 4L, B0, 2L)::get)).isFalse();
        // A1 held nothing (its end was at its earliest offset): never read, still done
        assertThat(start.reachedBy(Map.of(A0, 5L, B0, 2L)::get)).isTrue();
        // records written after the start do not move the target
        assertThat(start.reachedBy(Map.of(A0, 9L, B0, 7L)::get)).isTrue();
    }

    @Test
    void oneTopicIsJudgedAlone() {
        assertThat(start.topics()).containsExactlyInAnyOrder("a", "b");
        StartOffsets a = start.of("a");
        assertThat(a.topics()).containsExactly("a");
        assertThat(a.reachedBy(Map.of(A0, 5L)::get)).isTrue();
        assertThat(start.of("b").reachedBy(Map.of(A0, 5L)::get)).isFalse();
    }
}
