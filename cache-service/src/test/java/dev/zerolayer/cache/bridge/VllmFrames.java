package dev.zerolayer.cache.bridge;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/** vLLM ZeroMQ messages for tests: the captured-hash fixture batch and frames around payloads. */
final class VllmFrames {

    /** The first four block hashes of the real vLLM capture (unsigned 64-bit), as Java longs. */
    static final List<Long> CAPTURED = List.of(Long.parseUnsignedLong("17705339885301241772"),
            Long.parseUnsignedLong("13360521540053240825"), 1652464311825922890L,
            Long.parseUnsignedLong("12860800319228078273"));

    private VllmFrames() {
    }

    /** The fixture payload: BlockStored of the four captured hashes, BlockRemoved of the fourth, AllBlocksCleared. */
    static byte[] fixtureBatch() {
        try (InputStream in = VllmFrames.class.getResourceAsStream("/vllm/event-batch-array.hex")) {
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<byte[]> frames(String topic, long seq, byte[] payload) {
        return List.of(topic.getBytes(StandardCharsets.UTF_8), ByteBuffer.allocate(8).putLong(seq).array(), payload);
    }
}
