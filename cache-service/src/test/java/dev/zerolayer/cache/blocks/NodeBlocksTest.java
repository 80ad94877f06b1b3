package dev.zerolayer.cache.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.cache.blocks.NodeBlocks.NodeSummary;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.PoisonEventException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/** Stored adds, removed removes, cleared empties, and an event not above the node's last sequence is dropped. */
class NodeBlocksTest {

    private final NodeBlocks blocks = new NodeBlocks(new EventReader(new SimpleMeterRegistry()));

    @Test
    void appliesStoredRemovedAndClearedInSequence() {
        // Given a node's events in order
        blocks.accept(message(kv("n1", 0, KvEventType.BLOCK_STORED, 1L, 2L, 3L)));
        blocks.accept(message(kv("n1", 1, KvEventType.BLOCK_REMOVED, 2L, 42L)));

        // Then it holds what they leave
        assertThat(blocks.blocks("n1")).containsExactlyInAnyOrder(1L, 3L);

        // When it clears everything and stores again
        blocks.accept(message(kv("n1", 2, KvEventType.ALL_BLOCKS_CLEARED)));
        assertThat(blocks.blocks("n1")).isEmpty();
        blocks.accept(message(kv("n1", 5, KvEventType.BLOCK_STORED, 7L)));

        // Then only the new block is held, and a gap in sequence is still applied
        assertThat(blocks.blocks("n1")).containsExactly(7L);
        assertThat(blocks.summary()).containsEntry("n1", new NodeSummary(1, 5));
        assertThat(blocks.duplicatesDropped()).isZero();
    }

    @Test
    void dropsEventsNotAboveTheLastAppliedSequenceOfThatNode() {
        // Given two nodes with their own sequences
        blocks.accept(message(kv("n1", 3, KvEventType.BLOCK_STORED, 1L)));
        blocks.accept(message(kv("n2", 1, KvEventType.BLOCK_STORED, 5L)));

        // When n1's event is delivered again, an older one arrives, and n2 continues
        blocks.accept(message(kv("n1", 3, KvEventType.BLOCK_STORED, 2L)));
        blocks.accept(message(kv("n1", 2, KvEventType.ALL_BLOCKS_CLEARED)));
        blocks.accept(message(kv("n2", 2, KvEventType.BLOCK_STORED, 6L)));

        // Then the duplicates change nothing, and the other node is unaffected
        assertThat(blocks.blocks("n1")).containsExactly(1L);
        assertThat(blocks.blocks("n2")).containsExactlyInAnyOrder(5L, 6L);
        assertThat(blocks.duplicatesDropped()).isEqualTo(2);
        assertThat(blocks.totalBlocks()).isEqualTo(3);
        assertThat(blocks.blocks("unknown")).isEmpty();
    }

    @Test
    void poisonIsRefusedAndChangesNothing() {
        blocks.accept(message(kv("n1", 1, KvEventType.BLOCK_STORED, 1L)));
        Message<byte[]> junk = MessageBuilder.withPayload("{nope".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_KEY, "n1".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_EVENTS).build();

        assertThatThrownBy(() -> blocks.accept(junk)).isInstanceOf(PoisonEventException.class)
                .hasMessageContaining("malformed");
        assertThat(blocks.summary()).containsOnlyKeys("n1").containsEntry("n1", new NodeSummary(1, 1));
    }

    private static Message<byte[]> message(KvCacheEvent event) {
        return MessageBuilder.withPayload(EventCodec.encode(event))
                .setHeader(KafkaHeaders.RECEIVED_KEY, event.key().getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_EVENTS).build();
    }

    private static KvCacheEvent kv(String node, long sequence, KvEventType type, Long... hashes) {
        return new KvCacheEvent(UUID.randomUUID().toString(), Instant.now(), 1, node, sequence, type, List.of(hashes),
                null, 16);
    }
}
