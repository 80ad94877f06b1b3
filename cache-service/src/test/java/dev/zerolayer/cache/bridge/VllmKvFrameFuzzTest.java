package dev.zerolayer.cache.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.testing.SeededFuzz;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import org.slf4j.LoggerFactory;

/**
 * Fuzzing of the vLLM KV-event frame path ({@code [topic, seq, msgpack EventBatch]} through
 * {@link VllmKvBridge#handle}, i.e. {@link VllmStreamTranslator} and {@link VllmEventBatch#decode}), without a socket:
 * valid batches (array and map forms, int and byte hashes, shortened events) decode to exactly what was generated;
 * batches damaged field by field, byte-level damage and random bytes each end in decoded events or a refusal counted in
 * {@code zerolayer_cache_bridge_frames_total{outcome="malformed"}} — never another exception — within a bounded time per
 * input. Cases: {@code -Dzerolayer.fuzz.cases} (default 10,000 per surface); a failing case is replayed with the
 * printed {@code -Dzerolayer.fuzz.seed} and {@code -Dzerolayer.fuzz.case}.
 */
class VllmKvFrameFuzzTest {

    private static final int DEFAULT_CASES = 10_000;
    /** No single message, however hostile, may take longer than this to decode or refuse. */
    private static final Duration PER_INPUT = Duration.ofSeconds(2);
    /** Put into every generated string: a refusal reason must never quote the payload. */
    private static final String MARKER = "fz-marker";
    private static final String[] TAGS = {"BlockStored", "BlockRemoved", "AllBlocksCleared"};
    private static final String[] STORED_FIELDS = {"block_hashes", "parent_block_hash", "token_ids", "block_size",
        "lora_id", "medium"};
    /** msgpack headers that declare far more than any message holds, or nest without end. */
    private static final byte[][] HOSTILE = {
        {(byte) 0xdd, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // array32 of 2^31-1
        {(byte) 0xdf, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // map32 of 2^31-1
        {(byte) 0xdb, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // str32 of 2^31-1 bytes
        {(byte) 0xc6, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // bin32 of 2^31-1 bytes
        {(byte) 0xc9, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01}, // ext32 of 2^31-1 bytes
        {(byte) 0xdd, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // array32 of 2^32-1
        {(byte) 0xcf, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff}, // uint64 max
        {(byte) 0xd3, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0}, // int64 min
        {(byte) 0xce, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // uint32 max
        {(byte) 0xc1}, // never used
        {(byte) 0xd7, (byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, // timestamp64 ext
    };

    private static Level previousLevel;

    @BeforeAll
    static void quietBridgeLog() {
        // the bridge logs every refused message (WARN); tens of thousands of them would only slow the run down
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(VllmKvBridge.class);
        previousLevel = logger.getLevel();
        logger.setLevel(Level.ERROR);
    }

    @AfterAll
    static void restoreBridgeLog() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(VllmKvBridge.class)).setLevel(previousLevel);
    }

    // ---- surfaces ----

    @Test
    void validBatchesDecodeToExactlyWhatWasGenerated() {
        Bridge bridge = new Bridge();
        fuzz("vllm kv frame valid batch", bridge, (random, i) -> {
            Generated batch = batch(random);
            byte[] payload = encode(batch.tree());
            VllmEventBatch decoded = decodeOrFail(payload);
            assertThat(decoded.events()).isEqualTo(batch.expected());
            assertThat(decoded.unknownEvents()).isEqualTo(batch.unknown());
            assertThat(decoded.dataParallelRank()).isEqualTo(batch.rank());
            assertThat(Double.valueOf(decoded.timestamp())).isEqualTo(Double.valueOf(batch.timestamp()));
            assertThat(bridge.handle(frames(random, i, payload))).as("a valid batch is accepted").isTrue();
        });
        assertThat(bridge.refused).isZero();
    }

    @Test
    void batchesDamagedFieldByFieldAreDecodedOrRefusedAndCounted() {
        Bridge bridge = new Bridge();
        fuzz("vllm kv frame damaged fields", bridge, (random, i) -> {
            Object tree = batch(random).tree();
            for (int damages = 1 + random.nextInt(3); damages > 0; damages--) {
                tree = damage(random, tree);
            }
            byte[] payload = encode(tree);
            if (!bridge.handle(frames(random, i, payload))) {
                refusalQuotesNothing(payload);
            }
        });
        assertThat(bridge.accepted).as("some damage leaves a decodable batch").isPositive();
        assertThat(bridge.refused).as("most damage is refused").isPositive();
    }

    @Test
    void byteLevelDamageIsDecodedOrRefusedAndCounted() {
        Bridge bridge = new Bridge();
        fuzz("vllm kv frame byte damage", bridge, (random, i) -> {
            byte[] payload = encode(batch(random).tree());
            for (int edits = 1 + random.nextInt(6); edits > 0; edits--) {
                payload = mutate(random, payload);
            }
            List<byte[]> frames = frames(random, i, payload);
            bridge.handle(random.nextInt(10) == 0 ? damageFrames(random, frames) : frames);
        });
        assertThat(bridge.refused).isPositive();
    }

    @Test
    void randomBytesAreDecodedOrRefusedAndCounted() {
        Bridge bridge = new Bridge();
        fuzz("vllm kv frame random bytes", bridge, (random, i) -> {
            byte[] payload = randomBytes(random);
            List<byte[]> frames = frames(random, i, payload);
            bridge.handle(random.nextInt(5) == 0 ? damageFrames(random, frames) : frames);
        });
        assertThat(bridge.refused).isPositive();
    }

    /**
     * What the generators found, as fixed cases (each escaped {@code decode} before: {@code NegativeArraySizeException},
     * {@code OutOfMemoryError}, seconds spent allocating, {@code MessageStringCodingException},
     * {@code MessageIntegerOverflowException}): refused in bounded time, no other exception.
     */
    @Test
    void hugeDeclaredSizesAndDeepNestingAreRefusedInBoundedTime() {
        for (byte[] hostile : HOSTILE) {
            refusedQuickly(hostile);
            byte[] inBatch = concat(new byte[] {(byte) 0x92, (byte) 0xcb, 0x3f, (byte) 0xf0, 0, 0, 0, 0, 0, 0,
                (byte) 0x91, (byte) 0x92, (byte) 0xab}, "BlockStored".getBytes(StandardCharsets.US_ASCII), hostile);
            refusedQuickly(inBatch);
        }
        byte[] deep = new byte[200_001];
        Arrays.fill(deep, (byte) 0x91); // [[[[…]]]] 200,000 deep
        deep[deep.length - 1] = (byte) 0xc0;
        refusedQuickly(deep);
        byte[] deepMaps = new byte[100_002];
        for (int i = 0; i + 1 < deepMaps.length; i += 2) {
            deepMaps[i] = (byte) 0x81; // {nil: {nil: …}}
            deepMaps[i + 1] = (byte) 0xc0;
        }
        refusedQuickly(deepMaps);
        // an event tag that is not UTF-8
        refusedQuickly(new byte[] {(byte) 0x92, 0x01, (byte) 0x91, (byte) 0x91, (byte) 0xa2, (byte) 0xff, (byte) 0xfe});
        // the largest integers where the decoder wants an int (data-parallel rank, block size)
        refusedOrDecoded(encode(List.of(ValueFactory.newFloat(1.0), List.of(),
                ValueFactory.newInteger(new BigInteger("18446744073709551615")))));
        refusedOrDecoded(encode(List.of(ValueFactory.newFloat(1.0), List.of(List.of(ValueFactory.newString("BlockStored"),
                List.of(ValueFactory.newInteger(1)), ValueFactory.newNil(), List.of(),
                ValueFactory.newInteger(Long.MAX_VALUE))))));
    }

    private static void refusalQuotesNothing(byte[] payload) {
        try {
            VllmEventBatch.decode(payload);
        } catch (MalformedFrameException refused) {
            assertThat(refused.getMessage()).isNotBlank().doesNotContain(MARKER);
        }
    }

    private static void refusedQuickly(byte[] payload) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> VllmEventBatch.decode(payload)).isInstanceOf(MalformedFrameException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PER_INPUT);
    }

    private static void refusedOrDecoded(byte[] payload) {
        try {
            VllmEventBatch.decode(payload);
        } catch (MalformedFrameException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    // ---- the bridge under test, with its counters ----

    /** One bridge (never started: no socket) whose counters every case must move by exactly one. */
    private static final class Bridge {

        private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
        private final List<KvCacheEvent> sent = new ArrayList<>();
        private final VllmKvBridge bridge = new VllmKvBridge(
                List.of(new VllmKvBridge.Endpoint("vllm-fuzz", "tcp://127.0.0.1:1", "")), sent::addAll,
                new MutableClock(Instant.parse("2026-11-29T12:00:00Z")), 1_000_000, meters);
        private long accepted;
        private long refused;
        private long events;
        private long lastSequence = -1;

        boolean handle(List<byte[]> frames) {
            double acceptedBefore = count("accepted");
            double refusedBefore = count("malformed");
            long start = System.nanoTime();
            boolean ok = bridge.handle(0, frames);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PER_INPUT);
            if (ok) {
                accepted++;
                assertThat(count("accepted")).isEqualTo(acceptedBefore + 1);
                assertThat(count("malformed")).isEqualTo(refusedBefore);
            } else {
                refused++;
                assertThat(count("malformed")).as("a refusal is counted").isEqualTo(refusedBefore + 1);
                assertThat(count("accepted")).isEqualTo(acceptedBefore);
            }
            sent.clear();
            bridge.drain();
            assertThat(ok || sent.isEmpty()).as("a refused message queues nothing").isTrue();
            for (KvCacheEvent event : sent) {
                assertThat(event.nodeId()).isEqualTo("vllm-fuzz");
                assertThat(event.sequence()).isGreaterThan(lastSequence);
                lastSequence = event.sequence();
                events++;
            }
            return ok;
        }

        private double count(String outcome) {
            return meters.counter("zerolayer.cache.bridge.frames", "outcome", outcome).count();
        }
    }

    /** Decodes, and turns a refusal of a valid batch into a test failure. */
    private static VllmEventBatch decodeOrFail(byte[] payload) {
        try {
            return VllmEventBatch.decode(payload);
        } catch (MalformedFrameException e) {
            throw new AssertionError("a valid batch was refused: " + e.getMessage(), e);
        }
    }

    /** Runs seeded cases ({@code SeededFuzz}), then reports what the bridge did with them. */
    private static void fuzz(String surface, Bridge bridge, BiConsumer<Random, Integer> body) {
        SeededFuzz.run(surface, DEFAULT_CASES, body);
        System.out.printf("  %d accepted (%d events), %d refused and counted%n", bridge.accepted, bridge.events,
                bridge.refused);
    }

    // ---- generation: a batch as a mutable tree (List = msgpack array, Entries = msgpack map, Value = scalar) ----

    /** A msgpack map as ordered entries (duplicate keys allowed, as on the wire). */
    record Entries(List<Object[]> entries) {
    }

    /** A generated batch: its tree and what it must decode to. */
    record Generated(Object tree, List<VllmEventBatch.Event> expected, int unknown, Integer rank, double timestamp) {
    }

    private static Generated batch(Random random) {
        double timestamp;
        Value ts;
        if (random.nextInt(4) == 0) {
            long seconds = 1_700_000_000L + random.nextInt(100_000_000);
            timestamp = seconds;
            ts = ValueFactory.newInteger(seconds);
        } else {
            timestamp = 1.7e9 + random.nextDouble() * 1e8;
            ts = ValueFactory.newFloat(timestamp);
        }
        List<Object> events = new ArrayList<>();
        List<VllmEventBatch.Event> expected = new ArrayList<>();
        int unknown = 0;
        for (int n = random.nextInt(9); n > 0; n--) {
            boolean asMap = random.nextInt(4) == 0;
            switch (random.nextInt(7)) {
                case 0, 1, 2 -> expected.add(stored(random, asMap, events));
                case 3, 4 -> expected.add(removed(random, asMap, events));
                case 5 -> {
                    events.add(asMap ? map("type", str("AllBlocksCleared"), "medium", str("GPU"))
                            : random.nextBoolean() ? list(str("AllBlocksCleared"))
                            : list(str("AllBlocksCleared"), str("GPU")));
                    expected.add(new VllmEventBatch.Cleared());
                }
                default -> {
                    String tag = random.nextBoolean() ? "SomethingNew" : "Blk" + word(random) + MARKER;
                    events.add(asMap ? map("type", str(tag), "block_hashes", list(ValueFactory.newInteger(1)))
                            : list(str(tag), list(ValueFactory.newInteger(random.nextInt(1000)))));
                    unknown++;
                }
            }
        }
        Integer rank = random.nextBoolean() ? null : random.nextInt(8);
        Object tree;
        if (random.nextInt(4) == 0) {
            Entries map = new Entries(new ArrayList<>());
            map.entries().add(new Object[] {str("ts"), ts});
            map.entries().add(new Object[] {str("events"), events});
            if (rank != null) {
                map.entries().add(new Object[] {str("data_parallel_rank"), ValueFactory.newInteger(rank)});
            } else if (random.nextBoolean()) {
                map.entries().add(new Object[] {str("data_parallel_rank"), ValueFactory.newNil()});
            }
            tree = map;
        } else {
            List<Object> array = new ArrayList<>(List.of(ts, events));
            if (rank != null) {
                array.add(ValueFactory.newInteger(rank));
            } else if (random.nextBoolean()) {
                array.add(ValueFactory.newNil());
            }
            tree = array;
        }
        return new Generated(tree, expected, unknown, rank, timestamp);
    }

    private static VllmEventBatch.Event stored(Random random, boolean asMap, List<Object> events) {
        List<Long> hashes = new ArrayList<>();
        List<Object> hashValues = new ArrayList<>();
        for (int n = random.nextInt(6); n > 0; n--) {
            hashValues.add(hash(random, hashes));
        }
        List<Long> parentBox = new ArrayList<>();
        Object parent = random.nextBoolean() ? ValueFactory.newNil() : hash(random, parentBox);
        Long parentHash = parentBox.isEmpty() ? null : parentBox.get(0);
        List<Object> tokens = new ArrayList<>();
        for (int n = random.nextInt(20); n > 0; n--) {
            tokens.add(ValueFactory.newInteger(random.nextInt(200_000)));
        }
        int blockSize = random.nextBoolean() ? 16 : random.nextInt(1025);
        String medium = switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "CPU";
            case 2 -> "gpu";
            default -> "GPU";
        };
        Value mediumValue = medium == null ? ValueFactory.newNil() : str(medium);
        Value lora = random.nextBoolean() ? ValueFactory.newNil() : ValueFactory.newInteger(random.nextInt(10));
        if (asMap) {
            Entries map = map("type", str("BlockStored"), "block_hashes", hashValues);
            if (random.nextBoolean() || parentHash != null) {
                map.entries().add(new Object[] {str("parent_block_hash"), parent});
            }
            map.entries().add(new Object[] {str("token_ids"), tokens});
            map.entries().add(new Object[] {str("block_size"), ValueFactory.newInteger(blockSize)});
            map.entries().add(new Object[] {str("lora_id"), lora});
            if (medium != null || random.nextBoolean()) {
                map.entries().add(new Object[] {str("medium"), mediumValue});
            }
            if (random.nextBoolean()) {
                map.entries().add(new Object[] {str("lora_name"), str(word(random) + MARKER)});
            }
            events.add(map);
            return new VllmEventBatch.Stored(hashes, parentHash, blockSize, medium);
        }
        List<Object> fields = new ArrayList<>(List.of(str("BlockStored"), hashValues, parent, tokens,
                ValueFactory.newInteger(blockSize), lora, mediumValue));
        if (random.nextBoolean()) {
            fields.add(ValueFactory.newNil()); // a newer trailing field (lora_name)
        }
        // trailing defaults may be left out (msgspec omit_defaults): cut after the block size at the earliest
        int keep = fields.size();
        if (medium == null && random.nextBoolean()) {
            keep = 5 + random.nextInt(2);
            if (parentHash == null && random.nextInt(4) == 0) {
                keep = 2; // only the hashes: block size then reads as 0
                blockSize = 0;
            }
        }
        events.add(new ArrayList<>(fields.subList(0, keep)));
        return new VllmEventBatch.Stored(hashes, parentHash, blockSize, medium);
    }

    private static VllmEventBatch.Event removed(Random random, boolean asMap, List<Object> events) {
        List<Long> hashes = new ArrayList<>();
        List<Object> hashValues = new ArrayList<>();
        for (int n = random.nextInt(5); n > 0; n--) {
            hashValues.add(hash(random, hashes));
        }
        String medium = random.nextInt(3) == 0 ? null : random.nextBoolean() ? "GPU" : "CPU_TIER";
        if (asMap) {
            Entries map = map("type", str("BlockRemoved"), "block_hashes", hashValues);
            if (medium != null) {
                map.entries().add(new Object[] {str("medium"), str(medium)});
            }
            events.add(map);
        } else {
            events.add(medium == null ? list(str("BlockRemoved"), hashValues)
                    : list(str("BlockRemoved"), hashValues, str(medium)));
        }
        return new VllmEventBatch.Removed(hashes, medium);
    }

    /** A block hash as vLLM may send it, adding its decoded value to {@code into}. */
    private static Value hash(Random random, List<Long> into) {
        long value = random.nextLong();
        switch (random.nextInt(4)) {
            case 0 -> {
                // raw hash bytes (sha256: 32), the last 8 read big endian
                byte[] bytes = new byte[1 + random.nextInt(32)];
                random.nextBytes(bytes);
                long low = 0;
                for (int i = Math.max(0, bytes.length - 8); i < bytes.length; i++) {
                    low = (low << 8) | (bytes[i] & 0xff);
                }
                into.add(low);
                return ValueFactory.newBinary(bytes);
            }
            case 1 -> {
                // unsigned 64-bit as Python sends it
                into.add(value);
                return ValueFactory.newInteger(new BigInteger(Long.toUnsignedString(value)));
            }
            case 2 -> {
                long small = random.nextInt(100_000);
                into.add(small);
                return ValueFactory.newInteger(small);
            }
            default -> {
                into.add(value);
                return ValueFactory.newInteger(value);
            }
        }
    }

    // ---- structure-aware damage: one field replaced, removed, duplicated, moved or changed in kind ----

    private static Object damage(Random random, Object tree) {
        List<Object> containers = new ArrayList<>();
        collect(tree, containers);
        Object target = containers.get(random.nextInt(containers.size()));
        if (target instanceof List<?> raw) {
            @SuppressWarnings("unchecked")
            List<Object> list = (List<Object>) raw;
            int at = list.isEmpty() ? 0 : random.nextInt(list.size());
            switch (list.isEmpty() ? 5 : random.nextInt(6)) {
                case 0 -> list.set(at, hostileValue(random));
                case 1 -> list.remove(at);
                case 2 -> list.add(at, list.get(at));
                case 3 -> list.set(at, kindChanged(random, list.get(at)));
                case 4 -> list.subList(at, list.size()).clear();
                default -> list.add(random.nextInt(list.size() + 1), hostileValue(random));
            }
        } else {
            List<Object[]> entries = ((Entries) target).entries();
            int at = entries.isEmpty() ? 0 : random.nextInt(entries.size());
            switch (entries.isEmpty() ? 4 : random.nextInt(5)) {
                case 0 -> entries.get(at)[1] = hostileValue(random);
                case 1 -> entries.remove(at);
                case 2 -> entries.add(new Object[] {entries.get(at)[0], hostileValue(random)}); // duplicate key
                case 3 -> entries.get(at)[0] = hostileValue(random);
                default -> entries.add(new Object[] {str(random.nextBoolean() ? "type"
                        : STORED_FIELDS[random.nextInt(STORED_FIELDS.length)]), hostileValue(random)});
            }
        }
        return tree;
    }

    private static void collect(Object node, List<Object> into) {
        if (node instanceof List<?> list) {
            into.add(list);
            list.forEach(child -> collect(child, into));
        } else if (node instanceof Entries map) {
            into.add(map);
            for (Object[] entry : map.entries()) {
                collect(entry[0], into);
                collect(entry[1], into);
            }
        }
    }

    /** The same content in another kind of container, or a scalar wrapped into one. */
    private static Object kindChanged(Random random, Object node) {
        if (node instanceof List<?> list) {
            Entries map = new Entries(new ArrayList<>());
            for (int i = 0; i + 1 < list.size(); i += 2) {
                map.entries().add(new Object[] {list.get(i), list.get(i + 1)});
            }
            return map;
        }
        if (node instanceof Entries map) {
            List<Object> list = new ArrayList<>();
            map.entries().forEach(entry -> list.addAll(List.of(entry[0], entry[1])));
            return list;
        }
        return random.nextBoolean() ? list(node) : map("value", node);
    }

    private static Object hostileValue(Random random) {
        return switch (random.nextInt(16)) {
            case 0 -> ValueFactory.newNil();
            case 1 -> ValueFactory.newBoolean(random.nextBoolean());
            case 2 -> ValueFactory.newInteger(random.nextLong());
            case 3 -> ValueFactory.newInteger(new BigInteger("18446744073709551615"));
            case 4 -> ValueFactory.newInteger(random.nextBoolean() ? Long.MIN_VALUE : Integer.MAX_VALUE + 1L);
            case 5 -> ValueFactory.newFloat(random.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY);
            case 6 -> str(TAGS[random.nextInt(TAGS.length)]);
            case 7 -> str(word(random) + MARKER);
            case 8 -> ValueFactory.newBinary(new byte[random.nextInt(3) == 0 ? 0 : random.nextInt(40)]);
            case 9 -> new ArrayList<>();
            case 10 -> new Entries(new ArrayList<>());
            case 11 -> {
                Object nested = ValueFactory.newNil();
                for (int depth = 1 + random.nextInt(300); depth > 0; depth--) {
                    nested = list(nested);
                }
                yield nested;
            }
            case 12 -> ValueFactory.newExtension((byte) random.nextInt(128), new byte[random.nextInt(9)]);
            case 13 -> ValueFactory.newTimestamp(Instant.ofEpochSecond(random.nextInt()));
            case 14 -> list(str(TAGS[random.nextInt(TAGS.length)]), hostileValue(random));
            default -> str("");
        };
    }

    // ---- byte-level damage and random bytes ----

    private static byte[] mutate(Random random, byte[] payload) {
        int at = payload.length == 0 ? 0 : random.nextInt(payload.length + 1);
        return switch (random.nextInt(8)) {
            case 0 -> { // flip a bit
                if (payload.length == 0) {
                    yield payload;
                }
                byte[] copy = payload.clone();
                int bit = random.nextInt(copy.length * 8);
                copy[bit / 8] ^= (byte) (1 << (bit % 8));
                yield copy;
            }
            case 1 -> { // overwrite a byte
                if (payload.length == 0) {
                    yield payload;
                }
                byte[] copy = payload.clone();
                copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
                yield copy;
            }
            case 2 -> { // insert random bytes
                byte[] inserted = new byte[1 + random.nextInt(8)];
                random.nextBytes(inserted);
                yield concat(Arrays.copyOf(payload, at), inserted, Arrays.copyOfRange(payload, at, payload.length));
            }
            case 3 -> concat(Arrays.copyOf(payload, at), // delete a run
                    Arrays.copyOfRange(payload, Math.min(payload.length, at + 1 + random.nextInt(16)), payload.length));
            case 4 -> Arrays.copyOf(payload, at); // truncate
            case 5 -> concat(Arrays.copyOf(payload, Math.min(payload.length, at + random.nextInt(40))), // duplicate a run
                    Arrays.copyOfRange(payload, at, payload.length));
            case 6 -> { // a hostile header inserted, or overwriting what is there
                byte[] hostile = hostileBytes(random);
                yield random.nextBoolean()
                        ? concat(Arrays.copyOf(payload, at), hostile, Arrays.copyOfRange(payload, at, payload.length))
                        : concat(Arrays.copyOf(payload, at), hostile,
                                Arrays.copyOfRange(payload, Math.min(payload.length, at + hostile.length), payload.length));
            }
            default -> { // a length or count byte raised: the next header claims more than is there
                byte[] copy = payload.clone();
                for (int i = 0; i < copy.length; i++) {
                    int b = copy[(at + i) % copy.length] & 0xff;
                    if (b >= 0x90 && b <= 0x9f || b >= 0xa0 && b <= 0xbf || b >= 0x80 && b <= 0x8f) {
                        copy[(at + i) % copy.length] = (byte) (b | 0x0f);
                        break;
                    }
                }
                yield copy;
            }
        };
    }

    private static byte[] hostileBytes(Random random) {
        if (random.nextInt(4) == 0) {
            byte[] deep = new byte[1 + random.nextInt(random.nextBoolean() ? 100 : 50_000)];
            Arrays.fill(deep, (byte) (random.nextBoolean() ? 0x91 : 0xdc)); // nested arrays (0xdc: array16 headers)
            return deep;
        }
        return HOSTILE[random.nextInt(HOSTILE.length)];
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(300)];
        if (random.nextBoolean()) {
            random.nextBytes(bytes);
        } else {
            // msgpack-looking bytes: headers, nil, small ints, fixstr
            int[] alphabet = {0x90, 0x91, 0x92, 0x93, 0x97, 0x80, 0x81, 0xdc, 0xdd, 0xde, 0xdf, 0xc0, 0xc2, 0xc3,
                0xcb, 0xcf, 0xd3, 0xa0, 0xab, 0xac, 0xc4, 0xc5, 0xc6, 0xd4, 0xd8, 0xc7, 0x01, 0x10, 0x7f, 0xff};
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) alphabet[random.nextInt(alphabet.length)];
            }
        }
        return bytes;
    }

    // ---- frames ----

    private static List<byte[]> frames(Random random, int i, byte[] payload) {
        String topic = random.nextBoolean() ? "" : "kv@vllm-fuzz";
        // sequences mostly rise, sometimes jump or go back (an engine restart)
        long seq = random.nextInt(20) == 0 ? random.nextInt(10) : i;
        return List.of(topic.getBytes(StandardCharsets.UTF_8), ByteBuffer.allocate(8).putLong(seq).array(), payload);
    }

    private static List<byte[]> damageFrames(Random random, List<byte[]> frames) {
        List<byte[]> damaged = new ArrayList<>(frames);
        switch (random.nextInt(4)) {
            case 0 -> damaged.remove(random.nextInt(damaged.size()));
            case 1 -> damaged.add(random.nextInt(damaged.size() + 1), new byte[random.nextInt(9)]);
            case 2 -> damaged.set(1, new byte[random.nextInt(12)]);
            default -> damaged.clear();
        }
        return damaged;
    }

    // ---- encoding ----

    private static byte[] encode(Object tree) {
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            pack(packer, tree);
            return packer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pack(MessageBufferPacker packer, Object node) throws IOException {
        if (node instanceof List<?> list) {
            packer.packArrayHeader(list.size());
            for (Object child : list) {
                pack(packer, child);
            }
        } else if (node instanceof Entries map) {
            packer.packMapHeader(map.entries().size());
            for (Object[] entry : map.entries()) {
                pack(packer, entry[0]);
                pack(packer, entry[1]);
            }
        } else {
            packer.packValue((Value) node);
        }
    }

    private static List<Object> list(Object... items) {
        return new ArrayList<>(Arrays.asList(items));
    }

    private static Entries map(Object... keysAndValues) {
        Entries map = new Entries(new ArrayList<>());
        for (int i = 0; i < keysAndValues.length; i += 2) {
            Object key = keysAndValues[i] instanceof String s ? str(s) : keysAndValues[i];
            map.entries().add(new Object[] {key, keysAndValues[i + 1]});
        }
        return map;
    }

    private static Value str(String text) {
        return ValueFactory.newString(text);
    }

    private static String word(Random random) {
        StringBuilder word = new StringBuilder();
        for (int n = random.nextInt(10); n > 0; n--) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
