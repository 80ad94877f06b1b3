package dev.zerolayer.cache.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * Decodes vLLM's msgpack KV-event batches — the array form with the real captured hashes (unsigned 64-bit), the map
 * form, shortened events and byte hashes — and refuses what is not a batch.
 */
class VllmEventBatchTest {

    @Test
    void decodesTheArrayFormWithTheRealCapturedHashes() throws Exception {
        VllmEventBatch batch = VllmEventBatch.decode(VllmFrames.fixtureBatch());

        assertThat(batch.timestamp()).isEqualTo(1732885200.25);
        assertThat(batch.dataParallelRank()).isNull();
        assertThat(batch.events()).containsExactly(
                new VllmEventBatch.Stored(VllmFrames.CAPTURED, null, 16, "GPU"),
                new VllmEventBatch.Removed(List.of(VllmFrames.CAPTURED.get(3)), "GPU"),
                new VllmEventBatch.Cleared());
        assertThat(Long.toUnsignedString(batch.events().get(0) instanceof VllmEventBatch.Stored s
                ? s.blockHashes().get(0) : 0)).isEqualTo("17705339885301241772");
    }

    @Test
    void decodesTheMapFormShortEventsByteHashesAndSkipsUnknownKinds() throws Exception {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packMapHeader(3).packString("ts").packDouble(1.5).packString("events").packArrayHeader(4);
        packer.packMapHeader(3).packString("type").packString("BlockStored").packString("block_hashes")
                .packArrayHeader(1).packBinaryHeader(32).writePayload(hash32()).packString("block_size").packInt(16);
        packer.packArrayHeader(2).packString("BlockRemoved").packArrayHeader(1).packLong(42); // medium left out
        packer.packArrayHeader(1).packString("SomethingNew");
        packer.packArrayHeader(1).packString("AllBlocksCleared");
        packer.packString("data_parallel_rank").packInt(1);
        VllmEventBatch batch = VllmEventBatch.decode(packer.toByteArray());

        assertThat(batch.dataParallelRank()).isEqualTo(1);
        assertThat(batch.unknownEvents()).isEqualTo(1);
        assertThat(batch.events()).containsExactly(
                new VllmEventBatch.Stored(List.of(0x18191a1b1c1d1e1fL), null, 16, null),
                new VllmEventBatch.Removed(List.of(42L), null),
                new VllmEventBatch.Cleared());
    }

    private static byte[] hash32() {
        byte[] bytes = new byte[32];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes; // low 64 bits: bytes 24..31
    }

    @Test
    void refusesPayloadsThatAreNotABatch() throws IOException {
        byte[] fixture = VllmFrames.fixtureBatch();
        assertMalformed(new byte[0], "not msgpack");
        assertMalformed(new byte[] {(byte) 0xc1}, "not msgpack"); // a never-used msgpack byte
        assertMalformed(Arrays.copyOf(fixture, fixture.length - 5), "not msgpack"); // truncated
        byte[] trailing = Arrays.copyOf(fixture, fixture.length + 1);
        assertMalformed(trailing, "trailing bytes");
        assertMalformed(packed(p -> p.packString("hello")), "neither an array nor a map");
        assertMalformed(packed(p -> p.packArrayHeader(1).packDouble(1.0)), "needs ts and events");
        assertMalformed(packed(p -> p.packArrayHeader(2).packString("x").packArrayHeader(0)), "ts is not a number");
        assertMalformed(packed(p -> p.packArrayHeader(2).packDouble(1.0).packInt(3)), "events is not an array");
        assertMalformed(packed(p -> p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packArrayHeader(0)),
                "does not start with its tag");
        assertMalformed(packed(p -> p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packArrayHeader(2)
                .packString("BlockStored").packString("not hashes")), "block_hashes is not an array");
        assertMalformed(packed(p -> p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packArrayHeader(2)
                .packString("BlockRemoved").packArrayHeader(1).packString("x")), "neither an integer nor bytes");
        assertMalformed(packed(p -> p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packMapHeader(0)),
                "no type tag");
    }

    interface Packing {
        void pack(MessageBufferPacker packer) throws IOException;
    }

    private static byte[] packed(Packing packing) throws IOException {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packing.pack(packer);
        return packer.toByteArray();
    }

    private static void assertMalformed(byte[] payload, String reason) {
        assertThatThrownBy(() -> VllmEventBatch.decode(payload)).isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining(reason);
    }
}
