package dev.zerolayer.router.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte scanner reads the plain deltas and stops as the JSON parser does, and on anything else, malformed or not,
 * leaves the event to the parser: checked on seeded random events, their mutations and truncations.
 */
class EventScannerTest {

    private static final String[] PIECES = {"Hello", " world", "é", "中文", "😀", "\\u00e9", "\\ud83d\\ude00", "\\n",
        "\\\"q\\\"", "\\\\", "\\/", "\\t\\r\\b\\f", "{\\\"city\\\": ", "", " ", "\u007f"};
    private static final String[][] KINDS = {{"text_delta", "text"}, {"thinking_delta", "thinking"},
        {"signature_delta", "signature"}, {"input_json_delta", "partial_json"}};

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static AnswerEvent scanned(byte[] data) {
        return EventScanner.read(data, 0, data.length);
    }

    private static AnswerEvent parsed(byte[] data) {
        return AnthropicEvents.parsed(data, 0, data.length);
    }

    @Test
    void readsThePlainShapesItself() {
        assertThat(scanned(bytes("{\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\","
                + "\"text\":\"Hi \\u00e9 \\\"there\\\" 中文😀\"}}")))
                .isEqualTo(new AnswerEvent.BlockDelta(3, AnswerEvent.Kind.TEXT, "Hi é \"there\" 中文😀"));
        assertThat(scanned(bytes(" { \"delta\" : { \"partial_json\" : \"{\\\"a\\\":\" , \"type\" : "
                + "\"input_json_delta\" } , \"index\" : 0 , \"type\" : \"content_block_delta\" } ")))
                .isEqualTo(new AnswerEvent.BlockDelta(0, AnswerEvent.Kind.INPUT_JSON, "{\"a\":"));
        assertThat(scanned(bytes("{\"type\":\"content_block_stop\",\"index\":12}")))
                .isEqualTo(new AnswerEvent.BlockStop(12));
        assertThat(scanned(bytes("{\"type\":\"message_stop\"}"))).isEqualTo(new AnswerEvent.Stop());
    }

    @Test
    void leavesEverythingElseToTheParser() {
        List<String> others = List.of(
                "{\"type\":\"ping\"}",
                "{\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"citations_delta\",\"citation\":{}}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"thinking\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":-1,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":01,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":1.0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\u0001\"}}",
                "{\"type\":\"content_block_stop\"}",
                "{\"type\":\"message_stop\",\"extra\":true}",
                "{\"type\":\"message_stop\"} trailing",
                "{}", "[]", "", "{\"type\":\"message_stop\"");
        for (String other : others) {
            assertThat(scanned(bytes(other))).as(other).isNull();
        }
        byte[] brokenUtf8 = bytes("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                + "\"text\":\"ab\"}}");
        brokenUtf8[brokenUtf8.length - 5] = (byte) 0xc3;
        assertThat(scanned(brokenUtf8)).isNull();
        byte[] overlong = bytes("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                + "\"text\":\"ab\"}}");
        overlong[overlong.length - 6] = (byte) 0xc0;
        overlong[overlong.length - 5] = (byte) 0xaf;
        assertThat(scanned(overlong)).isNull();
    }

    @Test
    void agreesWithTheParserOnRandomEventsAndTheirMutations() {
        Random random = new Random(20261203);
        int scannedCount = 0;
        for (int n = 0; n < 20_000; n++) {
            byte[] event = bytes(randomEvent(random));
            AnswerEvent fast = scanned(event);
            if (fast != null) {
                scannedCount++;
                assertThat(fast).as(new String(event, StandardCharsets.UTF_8)).isEqualTo(parsed(event));
            }
            for (byte[] changed : mutations(event, random)) {
                AnswerEvent mutated = scanned(changed);
                if (mutated != null) {
                    assertThat(mutated).as(new String(changed, StandardCharsets.UTF_8)).isEqualTo(parsed(changed));
                }
            }
        }
        assertThat(scannedCount).as("the scanner reads most well-formed plain events").isGreaterThan(15_000);
    }

    private static String randomEvent(Random random) {
        String space = random.nextInt(4) == 0 ? " " : "";
        int shape = random.nextInt(10);
        if (shape == 0) {
            return "{" + space + "\"type\":" + space + "\"content_block_stop\"," + space + "\"index\":"
                    + random.nextInt(40) + "}";
        }
        if (shape == 1) {
            return space + "{\"type\"" + space + ":\"message_stop\"" + space + "}" + space;
        }
        String[] kind = KINDS[random.nextInt(KINDS.length)];
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
        }
        List<String> inner = new ArrayList<>(List.of("\"type\":" + space + "\"" + kind[0] + "\"",
                "\"" + kind[1] + "\":" + space + "\"" + text + "\""));
        if (random.nextBoolean()) {
            java.util.Collections.reverse(inner);
        }
        List<String> members = new ArrayList<>(List.of("\"type\":\"content_block_delta\"",
                "\"index\":" + space + random.nextInt(1000),
                "\"delta\":{" + String.join("," + space, inner) + "}"));
        java.util.Collections.shuffle(members, random);
        return "{" + space + String.join("," + space, members) + space + "}";
    }

    private static List<byte[]> mutations(byte[] event, Random random) {
        List<byte[]> out = new ArrayList<>();
        byte[] flipped = event.clone();
        flipped[random.nextInt(flipped.length)] = (byte) random.nextInt(256);
        out.add(flipped);
        byte[] replaced = event.clone();
        String swaps = "\"\\{}:,0 9e-\u00c3";
        replaced[random.nextInt(replaced.length)] = (byte) swaps.charAt(random.nextInt(swaps.length()));
        out.add(replaced);
        out.add(java.util.Arrays.copyOf(event, random.nextInt(event.length)));
        return out;
    }
}
