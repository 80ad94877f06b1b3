package dev.zerolayer.router.reliability;

import dev.zerolayer.contracts.codec.EventCodec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seeded generators of hostile client input for fuzzing: Anthropic and OpenAI bodies built valid and then damaged
 * (fields removed, nulled, retyped, stretched; huge numbers; unicode; invalid UTF-8; cuts), raw noise, odd header
 * values; {@code SeededFuzz} (platform's test jar) runs them.
 */
public final class ClientBodies {

    /** Prompt text carries this marker; no error message may quote it back. */
    public static final String MARKER = "ZLPROMPT-7c1d";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] ODD_NUMBERS = {"1e999999", "-1e999999", "123456789012345678901234567890",
        "9223372036854775808", "2147483648", "-2147483649", "1E-400", "-0", "1.5", "0x10", "NaN", "Infinity", "00012"};
    private static final String[] ODD_TEXT = {"", " ", "\u0000", "\ud800", "\u4e2d\u6587\u63d0\u793a", "\ud83d\ude00",
        "\u202e", "\\", "\"", "null", "haiku", "Opus", "SONNET", "sonnet ", "x".repeat(5_000)};
    private static final byte[][] BAD_UTF8 = {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFE, (byte) 0xFF}};

    private ClientBodies() {
    }

    /** A valid Anthropic Messages body, varied: string or block content, system, metadata, extra fields. */
    public static ObjectNode anthropic(Random random) {
        ObjectNode body = NODES.objectNode();
        body.put("model", pick(random, "claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-1", "unknown-model"));
        body.put("max_tokens", 1 + random.nextInt(4096));
        if (random.nextBoolean()) {
            body.put("stream", random.nextBoolean());
        }
        if (random.nextInt(3) == 0) {
            body.set("system", random.nextBoolean() ? NODES.stringNode(prompt(random))
                    : NODES.arrayNode().add(textBlock(random)));
        }
        if (random.nextInt(4) == 0) {
            body.putObject("metadata").put("user_id", "u-" + random.nextInt(100));
        }
        if (random.nextInt(4) == 0) {
            body.put("temperature", random.nextDouble());
        }
        ArrayNode messages = body.putArray("messages");
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
            ObjectNode message = messages.addObject();
            message.put("role", i % 2 == 1 ? "user" : "assistant");
            if (random.nextBoolean()) {
                message.put("content", prompt(random));
            } else {
                ArrayNode blocks = message.putArray("content");
                blocks.add(textBlock(random));
                if (random.nextInt(4) == 0) {
                    blocks.addObject().put("type", "image").putObject("source").put("type", "base64");
                }
            }
        }
        return body;
    }

    /** A valid OpenAI Chat Completions body, varied: system/developer/tool roles, part arrays, limits, user. */
    public static ObjectNode openAi(Random random) {
        ObjectNode body = NODES.objectNode();
        body.put("model", pick(random, "gpt-4o", "gpt-4o-mini", "claude-haiku-4-5", "anything"));
        if (random.nextBoolean()) {
            body.put("stream", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            body.put(random.nextBoolean() ? "max_tokens" : "max_completion_tokens", 1 + random.nextInt(4096));
        }
        if (random.nextInt(4) == 0) {
            body.put("user", "u-" + random.nextInt(100));
        }
        ArrayNode messages = body.putArray("messages");
        if (random.nextBoolean()) {
            messages.addObject().put("role", random.nextBoolean() ? "system" : "developer").put("content",
                    prompt(random));
        }
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            ObjectNode message = messages.addObject();
            message.put("role", pick(random, "user", "assistant", "user", "tool"));
            if (random.nextInt(4) == 0) {
                message.putArray("content").add(textBlock(random));
            } else {
                message.put("content", prompt(random));
            }
        }
        return body;
    }

    /** A valid OpenAI Responses body, varied: a string or items (messages, function calls and outputs), tools. */
    public static ObjectNode responses(Random random) {
        ObjectNode body = NODES.objectNode();
        body.put("model", pick(random, "gpt-4o-mini", "gpt-5", "anything"));
        if (random.nextBoolean()) {
            body.put("stream", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            body.put("max_output_tokens", 1 + random.nextInt(4096));
        }
        if (random.nextInt(3) == 0) {
            body.put("instructions", prompt(random));
        }
        if (random.nextInt(4) == 0) {
            body.putArray("tools").addObject().put("type", "function").put("name", "f").putObject("parameters")
                    .put("type", "object");
        }
        if (random.nextInt(3) == 0) {
            body.put("input", prompt(random));
            return body;
        }
        ArrayNode input = body.putArray("input");
        input.addObject().put("role", "user").putArray("content").addObject().put("type", "input_text")
                .put("text", prompt(random));
        if (random.nextBoolean()) {
            input.addObject().put("type", "function_call").put("call_id", "c1").put("name", "f").put("arguments", "{}");
            input.addObject().put("type", "function_call_output").put("call_id", "c1").put("output", prompt(random));
        }
        return body;
    }

    /** A valid legacy Completions body: a prompt string, strings or token ids. */
    public static ObjectNode completions(Random random) {
        ObjectNode body = NODES.objectNode();
        body.put("model", pick(random, "gpt-3.5-turbo-instruct", "anything"));
        switch (random.nextInt(3)) {
            case 0 -> body.put("prompt", prompt(random));
            case 1 -> body.putArray("prompt").add(prompt(random)).add(prompt(random));
            default -> body.putArray("prompt").add(NODES.arrayNode().add(1).add(2).add(3));
        }
        if (random.nextBoolean()) {
            body.put("max_tokens", 1 + random.nextInt(64));
        }
        if (random.nextBoolean()) {
            body.put("stream", random.nextBoolean());
        }
        return body;
    }

    /** A valid body for a client API path. */
    public static ObjectNode forPath(String path, Random random) {
        return switch (path) {
            case "/v1/chat/completions" -> openAi(random);
            case "/v1/responses" -> responses(random);
            case "/v1/completions" -> completions(random);
            default -> anthropic(random);
        };
    }

    private static ObjectNode textBlock(Random random) {
        return NODES.objectNode().put("type", "text").put("text", prompt(random));
    }

    private static String prompt(Random random) {
        return pick(random, "Summarise this", "\u8bf7\u89e3\u91ca", "Write code", "\ud83d\ude00 hi") + " " + MARKER + " "
                + random.nextInt(1_000_000);
    }

    /** Damages a valid body: structure first, sometimes bytes, sometimes replaces it with noise. */
    public static byte[] damage(Random random, ObjectNode valid) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            return noise;
        }
        if (kind == 1) {
            return pick(random, "", "null", "[]", "[1,2]", "\"text\"", "42", "{", "{}", "{\"model\":", "[".repeat(400),
                    "{\"messages\":" + "[".repeat(400) + "]}", "\ufeff{}").getBytes(StandardCharsets.UTF_8);
        }
        JsonNode tree = valid.deepCopy();
        if (kind > 4) {
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
                tree = mutate(random, tree, 0);
            }
        }
        byte[] bytes = EventCodec.mapper().writeValueAsBytes(tree);
        return kind < 8 ? mutateBytes(random, bytes) : bytes;
    }

    /**
     * Bodies beyond the JSON reader's limits (nesting deeper than 500, a number longer than 1,000 digits): kept out of
     * the random mix because they hit a known defect (see RequestParserFuzzTest#bodiesBeyondTheJsonLimitsAreRefused).
     */
    public static List<String> beyondJsonLimits() {
        return List.of("[".repeat(5_000), "{\"model\":\"m\",\"max_tokens\":8,\"messages\":" + "[".repeat(2_000) + "]}",
                "{\"model\":\"m\",\"max_tokens\":" + "9".repeat(2_000) + ",\"messages\":[]}",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"n\":" + "1".repeat(1_500) + "}");
    }

    static JsonNode mutate(Random random, JsonNode node, int depth) {
        if (node instanceof ObjectNode object && !object.isEmpty() && depth < 4 && random.nextInt(4) > 0) {
            List<String> names = new ArrayList<>();
            object.propertyNames().forEach(names::add);
            String name = names.get(random.nextInt(names.size()));
            switch (random.nextInt(8)) {
                case 0 -> object.remove(name);
                case 1 -> object.putNull(name);
                case 2 -> object.set(pick(random, "stream", "max_tokens", "system", "metadata", "tools", "n",
                        "role", "content", "type", "text"), randomNode(random, 0));
                default -> object.set(name, mutate(random, object.get(name), depth + 1));
            }
            return object;
        }
        if (node instanceof ArrayNode array && depth < 4 && random.nextInt(4) > 0) {
            if (array.isEmpty() || random.nextInt(4) == 0) {
                array.add(randomNode(random, 0));
            } else {
                int at = random.nextInt(array.size());
                if (random.nextInt(3) == 0) {
                    array.remove(at);
                } else {
                    array.set(at, mutate(random, array.get(at), depth + 1));
                }
            }
            return array;
        }
        return randomNode(random, 0);
    }

    static JsonNode randomNode(Random random, int depth) {
        return switch (random.nextInt(depth > 2 ? 6 : 8)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
            case 3 -> NODES.numberNode(random.nextLong());
            case 4 -> NODES.numberNode(new java.math.BigInteger(200, random));
            case 5 -> NODES.stringNode(oddText(random));
            case 6 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomNode(random, depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(pick(random, "type", "text", "role", "content", "x"), randomNode(random, depth + 1));
                }
                yield object;
            }
        };
    }

    public static String oddText(Random random) {
        if (random.nextBoolean()) {
            return ODD_TEXT[random.nextInt(ODD_TEXT.length)];
        }
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(24); i > 0; i--) {
            text.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x10FFFF) : 0x20 + random.nextInt(0x5F));
        }
        return text.toString();
    }

    /** A header value that is legal on the wire (visible ASCII and spaces) but odd. */
    public static String oddHeader(Random random) {
        String[] values = {"", "haiku", "sonnet", "opus", "Haiku", "OPUS", " opus", "opus,haiku", "null", "1",
            "x".repeat(2_000), "\u00e9"};
        String value = values[random.nextInt(values.length)];
        return value.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? value : "x";
    }

    public static String oddNumber(Random random) {
        return ODD_NUMBERS[random.nextInt(ODD_NUMBERS.length)];
    }

    static byte[] mutateBytes(Random random, byte[] bytes) {
        if (bytes.length == 0) {
            return bytes;
        }
        int at = random.nextInt(bytes.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (random.nextInt(5)) {
            case 0 -> {
                byte[] copy = bytes.clone();
                copy[at] ^= (byte) (1 << random.nextInt(8));
                return copy;
            }
            case 1, 2 -> {
                out.write(bytes, 0, at);
                out.writeBytes(BAD_UTF8[random.nextInt(BAD_UTF8.length)]);
                out.write(bytes, at, bytes.length - at);
            }
            case 3 -> out.write(bytes, 0, at);
            default -> {
                // a number token stretched to an absurd size
                String text = new String(bytes, StandardCharsets.UTF_8).replaceFirst(":(\\d+)", ":" + oddNumber(random));
                return text.getBytes(StandardCharsets.UTF_8);
            }
        }
        return out.toByteArray();
    }

    @SafeVarargs
    static <T> T pick(Random random, T... options) {
        return options[random.nextInt(options.length)];
    }
}
