package dev.zerolayer.cache.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * One KvCacheEvent per vLLM event in order, numbered by the node's rising sequence; a vLLM sequence that goes back
 * (engine restart) clears first; a jump is counted; frames of the wrong shape and non-GPU events are not forwarded.
 */
class VllmStreamTranslatorTest {

    private final AtomicLong sequence = new AtomicLong(1000);
    private final VllmStreamTranslator translator = new VllmStreamTranslator("vllm-a", sequence,
            new MutableClock(Instant.parse("2026-11-29T12:00:00Z")));

    @Test
    void translatesABatchIntoNodeEventsWithRisingSequences() throws Exception {
        List<KvCacheEvent> events = translator.translate(VllmFrames.frames("kv@a", 0, VllmFrames.fixtureBatch()));

        assertThat(events).extracting(KvCacheEvent::type).containsExactly(KvEventType.BLOCK_STORED,
                KvEventType.BLOCK_REMOVED, KvEventType.ALL_BLOCKS_CLEARED);
        assertThat(events).extracting(KvCacheEvent::sequence).containsExactly(1000L, 1001L, 1002L);
        assertThat(events).extracting(KvCacheEvent::nodeId).containsOnly("vllm-a");
        assertThat(events.get(0).blockHashes()).isEqualTo(VllmFrames.CAPTURED);
        assertThat(events.get(0).blockSize()).isEqualTo(16);
        assertThat(events.get(1).blockHashes()).containsExactly(VllmFrames.CAPTURED.get(3));
    }

    @Test
    void anEngineRestartClearsFirstAndLostMessagesAreCounted() throws Exception {
        translator.translate(VllmFrames.frames("", 5, stored("GPU", 1L)));
        translator.translate(VllmFrames.frames("", 8, stored("GPU", 2L))); // 6 and 7 lost
        assertThat(translator.gaps()).isEqualTo(1);

        List<KvCacheEvent> afterRestart = translator.translate(VllmFrames.frames("", 0, stored("GPU", 3L)));
        assertThat(afterRestart).extracting(KvCacheEvent::type).containsExactly(KvEventType.ALL_BLOCKS_CLEARED,
                KvEventType.BLOCK_STORED);
        assertThat(afterRestart.get(1).sequence()).isGreaterThan(afterRestart.get(0).sequence());
    }

    @Test
    void eventsOfOtherMediaAreSkipped() throws Exception {
        assertThat(translator.translate(VllmFrames.frames("", 0, stored("CPU", 1L)))).isEmpty();
        assertThat(translator.skippedEvents()).isEqualTo(1);
    }

    @Test
    void framesOfTheWrongShapeAreRefused() {
        byte[] payload = VllmFrames.fixtureBatch();
        assertThatThrownBy(() -> translator.translate(List.of(new byte[8], payload)))
                .isInstanceOf(MalformedFrameException.class).hasMessageContaining("expected 3 frames");
        assertThatThrownBy(() -> translator.translate(List.of(new byte[0], new byte[4], payload)))
                .isInstanceOf(MalformedFrameException.class).hasMessageContaining("not 8");
        assertThatThrownBy(() -> translator.translate(VllmFrames.frames("", 1, new byte[] {1, 2, 3})))
                .isInstanceOf(MalformedFrameException.class);
        assertThat(sequence.get()).as("nothing numbered").isEqualTo(1000);
    }

    static byte[] stored(String medium, long hash) throws Exception {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packArrayHeader(7).packString("BlockStored")
                .packArrayHeader(1).packLong(hash).packNil().packArrayHeader(0).packInt(16).packNil()
                .packString(medium);
        return packer.toByteArray();
    }
}
