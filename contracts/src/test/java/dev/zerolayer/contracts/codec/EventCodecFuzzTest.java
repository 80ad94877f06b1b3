package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.testing.SeededFuzz;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzing of every event type's decoding, the step every Kafka consumer runs first: random JSON and mutated valid events
 * (fields removed, nulled, of the wrong type, huge or odd numbers, unicode, invalid UTF-8, truncation) each end in a
 * record or an {@link InvalidEventException} — never another exception — in bounded time; a record that decodes
 * re-encodes and decodes to itself. Cases per event type: {@code -Dzerolayer.fuzz.cases} (default 10,000); a failing
 * case is replayed with the printed {@code -Dzerolayer.fuzz.seed}.
 */
class EventCodecFuzzTest {

    private static final int DEFAULT_CASES = 10_000;
    private static final Duration PER_INPUT = Duration.ofSeconds(2);
    /** Put into mutated string fields; a refusal reason must never quote it back (no payload text in reasons). */
    static final String MARKER = "ZLMARK-payload-text";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] ODD_NUMBERS = {"1e999999", "-1e999999", "123456789012345678901234567890",
        "-9223372036854775809", "9223372036854775808", "1E-400", "-0", "0.0000000000000000000000001", "4.9e-324",
        "1.7976931348623157e309", "2147483648", "-2147483649", "00012", "1.", ".5", "+1", "0x10", "NaN", "Infinity"};
    private static final String[] ODD_TEXT = {"", " ", "\u0000", "\ud800", "\udfff\ud800", "\u4e2d\u6587", "\ud83d\ude00",
        "\u202e", "\\", "\"", "null", "true", "2026-13-45T99:99:99Z", "-1", "NaN", "x".repeat(70_000)};
    private static final byte[][] BAD_UTF8 = {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE2, (byte) 0x82}};

    @Test
    void everyEventTypeDecodesToARecordOrRefusesWithInvalidEventException() {
        for (Map.Entry<String, Event> sample : SampleEvents.all().entrySet()) {
            Class<? extends Event> type = decodeType(sample.getValue());
            JsonNode valid = EventCodec.mapper().readTree(EventCodec.encode(sample.getValue()));
            String key = sample.getValue().key();
            int[] decoded = new int[1];
            fuzz(sample.getKey(), (random, index) -> {
                byte[] input = input(random, valid);
                String recordKey = random.nextInt(10) == 0 ? oddText(random) : key;
                Event event = decodeOrRefuse(input, type, recordKey);
                if (event != null) {
                    decoded[0]++;
                    assertThat(EventCodec.decode(EventCodec.encode(event), type, event.key())).isEqualTo(event);
                }
            });
            // the mutations are not all fatal: some still decode, so both outcomes were exercised
            assertThat(decoded[0]).as("cases of %s that still decoded", sample.getKey()).isPositive();
        }
    }

    @Test
    void refusalReasonsNeverQuoteThePayload() {
        for (Map.Entry<String, Event> sample : SampleEvents.all().entrySet()) {
            Class<? extends Event> type = decodeType(sample.getValue());
            JsonNode valid = EventCodec.mapper().readTree(EventCodec.encode(sample.getValue()));
            fuzz(sample.getKey() + " reasons", 1_000, (random, index) -> {
                ObjectNode tree = (ObjectNode) valid.deepCopy();
                List<String> fields = new ArrayList<>();
                tree.propertyNames().forEach(fields::add);
                String field = fields.get(random.nextInt(fields.size()));
                tree.put(field, MARKER + random.nextInt(1000));
                try {
                    EventCodec.decode(EventCodec.mapper().writeValueAsBytes(tree), type);
                } catch (InvalidEventException refused) {
                    assertThat(refused.getMessage()).as("reason for a marker in %s", field).doesNotContain(MARKER);
                }
            });
        }
    }

    private static Event decodeOrRefuse(byte[] input, Class<? extends Event> type, String key) {
        long start = System.nanoTime();
        try {
            return EventCodec.decode(input, type, key);
        } catch (InvalidEventException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return null;
        } finally {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PER_INPUT);
        }
    }

    private static Class<? extends Event> decodeType(Event event) {
        return event instanceof NodeTelemetry ? NodeTelemetry.class : event.getClass();
    }

    /** One fuzz input: mostly a structurally mutated valid event, sometimes byte-mutated, sometimes plain noise. */
    static byte[] input(Random random, JsonNode valid) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            return noise;
        }
        if (kind == 1) {
            return randomJson(random, 0).getBytes(StandardCharsets.UTF_8);
        }
        JsonNode tree = valid.deepCopy();
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            tree = mutate(random, tree, 0);
        }
        byte[] bytes = EventCodec.mapper().writeValueAsBytes(tree);
        return kind < 6 ? mutateBytes(random, bytes) : bytes;
    }

    /** Changes one randomly chosen place of the tree: removes, nulls, retypes or stretches a value, or adds a field. */
    static JsonNode mutate(Random random, JsonNode node, int depth) {
        if (node instanceof ObjectNode object && !object.isEmpty() && (depth < 3 && random.nextInt(3) > 0)) {
            List<String> names = new ArrayList<>();
            object.propertyNames().forEach(names::add);
            String name = names.get(random.nextInt(names.size()));
            switch (random.nextInt(8)) {
                case 0 -> object.remove(name);
                case 1 -> object.putNull(name);
                case 2 -> object.set("unknown_" + random.nextInt(100), randomNode(random, 0));
                default -> object.set(name, mutate(random, object.get(name), depth + 1));
            }
            return object;
        }
        if (node instanceof ArrayNode array && depth < 3 && random.nextInt(3) > 0) {
            if (array.isEmpty() || random.nextInt(4) == 0) {
                array.add(randomNode(random, 0));
            } else {
                int at = random.nextInt(array.size());
                if (random.nextBoolean()) {
                    array.remove(at);
                } else {
                    array.set(at, mutate(random, array.get(at), depth + 1));
                }
            }
            return array;
        }
        return switch (random.nextInt(6)) {
            case 0 -> randomNode(random, 0);
            case 1 -> NODES.nullNode();
            case 2 -> NODES.stringNode(oddText(random));
            case 3 -> node.isNumber() ? NODES.numberNode(-node.asDouble()) : NODES.numberNode(random.nextLong());
            case 4 -> node.isString() ? NODES.stringNode(node.asString() + MARKER) : NODES.booleanNode(true);
            default -> NODES.numberNode(random.nextBoolean() ? Double.MAX_VALUE : Long.MIN_VALUE);
        };
    }

    static JsonNode randomNode(Random random, int depth) {
        int kind = depth > 3 ? random.nextInt(5) : random.nextInt(7);
        return switch (kind) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
            case 3 -> NODES.numberNode(random.nextLong());
            case 4 -> NODES.stringNode(oddText(random));
            case 5 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomNode(random, depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set("f" + random.nextInt(20), randomNode(random, depth + 1));
                }
                yield object;
            }
        };
    }

    /** Raw JSON-ish text: valid and invalid tokens, odd numbers, deep nesting. */
    static String randomJson(Random random, int depth) {
        int kind = random.nextInt(depth > 4 ? 4 : 8);
        return switch (kind) {
            case 0 -> ODD_NUMBERS[random.nextInt(ODD_NUMBERS.length)];
            case 1 -> "\"" + oddText(random).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            case 2 -> List.of("true", "false", "null", "tru", "nul", "'x'", "\"\\u12\"", "\"\\x\"").get(random.nextInt(8));
            case 3 -> "[".repeat(random.nextInt(3_000)) + "1";
            case 4, 5 -> {
                StringBuilder array = new StringBuilder("[");
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.append(randomJson(random, depth + 1)).append(random.nextInt(10) == 0 ? "" : ",");
                }
                yield array.append(random.nextInt(10) == 0 ? "" : "]").toString();
            }
            default -> {
                StringBuilder object = new StringBuilder("{");
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.append("\"").append(List.of("type", "eventId", "occurredAt", "schemaVersion", "nodeId",
                            "x").get(random.nextInt(6))).append("\":").append(randomJson(random, depth + 1))
                            .append(random.nextInt(10) == 0 ? "" : ",");
                }
                yield object.append("}").toString();
            }
        };
    }

    static String oddText(Random random) {
        if (random.nextBoolean()) {
            return ODD_TEXT[random.nextInt(ODD_TEXT.length)];
        }
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(24); i > 0; i--) {
            text.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x10FFFF) : 0x20 + random.nextInt(0x5F));
        }
        return text.toString();
    }

    /** Byte-level damage: a flipped byte, invalid UTF-8 inserted, a cut, or a duplicated run. */
    static byte[] mutateBytes(Random random, byte[] bytes) {
        if (bytes.length == 0) {
            return bytes;
        }
        int at = random.nextInt(bytes.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (random.nextInt(4)) {
            case 0 -> {
                byte[] copy = bytes.clone();
                copy[at] ^= (byte) (1 << random.nextInt(8));
                return copy;
            }
            case 1 -> {
                out.write(bytes, 0, at);
                out.writeBytes(BAD_UTF8[random.nextInt(BAD_UTF8.length)]);
                out.write(bytes, at, bytes.length - at);
            }
            case 2 -> out.write(bytes, 0, at);
            default -> {
                int length = Math.min(bytes.length - at, 1 + random.nextInt(30));
                out.write(bytes, 0, at + length);
                out.write(bytes, at, bytes.length - at);
            }
        }
        return out.toByteArray();
    }

    static void fuzz(String surface, BiConsumer<Random, Integer> body) {
        SeededFuzz.run(surface, DEFAULT_CASES, body);
    }

    static void fuzz(String surface, int cases, BiConsumer<Random, Integer> body) {
        SeededFuzz.run(surface, cases, body);
    }
}
