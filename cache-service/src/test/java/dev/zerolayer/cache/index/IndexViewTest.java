package dev.zerolayer.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The replica's copy of the published index: a record sets a block's holders (blocks unsigned above 2^63 too), a
 * tombstone forgets it, an unreadable record changes nothing, and nothing is ever pending to publish.
 */
class IndexViewTest {

    private final BlockIndex index = new BlockIndex();
    private final IndexView view = new IndexView(index, RestoreGate.opened(), "127.0.0.1:1", Map.of());

    private static ConsumerRecord<byte[], byte[]> record(long offset, String key, byte[] value) {
        return new ConsumerRecord<>(Topics.CACHE_KV_INDEX, 0, offset, key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static ConsumerRecord<byte[], byte[]> entry(long offset, long block, List<String> nodes) {
        return record(offset, Long.toUnsignedString(block), EventCodec.encode(new KvIndexEntry("e-" + offset,
                Instant.parse("2026-12-05T06:00:00Z"), KvIndexEntry.SCHEMA_VERSION, block, null, nodes,
                new Writer("cache-a", 1))));
    }

    @Test
    void recordsSetHoldersTombstonesForgetAndJunkChangesNothing() {
        // Given what the restore read back
        index.load(7L, List.of("a", "b"));

        // When later records arrive: a change, a block unsigned above 2^63, a block and its tombstone, junk
        view.apply(entry(2, 7L, List.of("b")));
        view.apply(entry(3, -3L, List.of("c")));
        view.apply(entry(4, 8L, List.of("a")));
        view.apply(record(5, "8", null));
        view.apply(record(6, "9", "{nope".getBytes(StandardCharsets.UTF_8)));
        view.apply(record(7, "not-a-block", null));
        view.apply(record(8, "11", EventCodec.encode(
                new KvIndexEntry("e-8", Instant.parse("2026-12-05T06:00:00Z"), KvIndexEntry.SCHEMA_VERSION, 10L, null,
                        List.of("d"), new Writer("cache-a", 1))))); // a key that is not its block: refused

        // Then each applies, the tombstone forgets, the junk changes nothing; nothing is pending to publish
        assertThat(index.holders(7L)).containsExactly("b");
        assertThat(index.holders(-3L)).containsExactly("c");
        assertThat(index.holders(8L)).isEmpty();
        assertThat(index.holders(10L)).isEmpty();
        assertThat(index.blocks()).isEqualTo(2);
        assertThat(index.pendingChanges()).isZero();
        assertThat(view.index()).isSameAs(index);
    }
}
