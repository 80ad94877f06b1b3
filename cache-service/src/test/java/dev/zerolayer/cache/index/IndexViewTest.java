package dev.zerolayer.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.KafkaNull;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * The replica's copy of the published index: later records set a block's holders, tombstones forget it, records the
 * restore read already are not applied a second time (the copy never steps back to an older value), poison is skipped.
 */
class IndexViewTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final BlockIndex index = new BlockIndex();
    private final IndexView view = new IndexView(new EventReader(meters), index, RestoreGate.opened());

    private static Message<?> record(int partition, long offset, long block, List<String> nodes) {
        Object payload = nodes == null ? KafkaNull.INSTANCE : EventCodec.encode(new KvIndexEntry("e-" + offset,
                Instant.parse("2026-12-05T06:00:00Z"), KvIndexEntry.SCHEMA_VERSION, block, null, nodes,
                new Writer("cache-a", 1)));
        return MessageBuilder.withPayload(payload)
                .setHeader(KafkaHeaders.RECEIVED_KEY, Long.toUnsignedString(block).getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_INDEX)
                .setHeader(KafkaHeaders.RECEIVED_PARTITION, partition).setHeader(KafkaHeaders.OFFSET, offset).build();
    }

    @SuppressWarnings("unchecked")
    private void deliver(Message<?> message) {
        view.accept((Message<byte[]>) message);
    }

    @Test
    void recordsTheRestoreReadAreNotAppliedAgainAndLaterOnesAre() {
        // Given a restore that read partition 0 up to offset 2 (exclusive): block 7 held by a and b at offset 1
        index.load(7L, List.of("a", "b"));
        view.restoredUpTo(Map.of(0, 2L));

        // When the binding reads the partition again from its start
        deliver(record(0, 0, 7L, List.of("a")));
        // Then the older value is not applied
        assertThat(index.holders(7L)).containsExactly("a", "b");
        deliver(record(0, 1, 7L, List.of("a", "b")));

        // When later records arrive: a change, a block unsigned above 2^63, a tombstone, poison
        deliver(record(0, 2, 7L, List.of("b")));
        deliver(record(1, 0, -3L, List.of("c")));
        deliver(record(0, 3, 8L, List.of("a")));
        deliver(record(0, 4, 8L, null));
        deliver(MessageBuilder.withPayload("{nope".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_KEY, "9".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_INDEX)
                .setHeader(KafkaHeaders.RECEIVED_PARTITION, 0).setHeader(KafkaHeaders.OFFSET, 5L).build());

        // Then each applies, the tombstone forgets, the poison changes nothing; nothing is pending to publish
        assertThat(index.holders(7L)).containsExactly("b");
        assertThat(index.holders(-3L)).containsExactly("c");
        assertThat(index.holders(8L)).isEmpty();
        assertThat(index.blocks()).isEqualTo(2);
        assertThat(index.pendingChanges()).isZero();
    }
}
