package dev.zerolayer.cache.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * A conversation is hashed as the nodes hash it (each text's token ids concatenated, content blocks joined without
 * separators) and matched against the index; malformed bodies are refused naming the field, never quoting the prompt.
 */
class PrefixLookupTest {

    private static final String SYSTEM = "You are the billing assistant of a large company. Answer precisely, "
            + "cite the invoice numbers you used, and never invent amounts. Keep answers under two hundred words.";
    private static final String QUESTION = "Please list every invoice of customer 4411 issued in October together "
            + "with its amount, its due date, and whether it has been paid in full or only in part.";

    private static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private final TokenCounter tokens = TokenCounter.defaultCounter();
    private final FastBlockHasher hasher = new FastBlockHasher(16, 0);
    private final BlockIndex index = new BlockIndex();
    private final PrefixLookup lookup = new PrefixLookup(tokens, hasher, index);

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private long[] nodeChain(String... texts) {
        // as node-simulator's PromptTokenizer does it: cl100k ids of each text, concatenated
        int[][] parts = Stream.of(texts).map(text -> CL100K.encodeOrdinary(text).toArray()).toArray(int[][]::new);
        int[] ids = new int[Stream.of(parts).mapToInt(p -> p.length).sum()];
        int at = 0;
        for (int[] part : parts) {
            System.arraycopy(part, 0, ids, at, part.length);
            at += part.length;
        }
        return hasher.hashChain(ids);
    }

    @Test
    void hashesAsTheNodesDoAndReportsEachNodesUnbrokenLeadingOverlap() {
        long[] chain = nodeChain(SYSTEM, QUESTION);
        assertThat(chain.length).isGreaterThanOrEqualTo(4);
        for (int i = 0; i < chain.length; i++) {
            index.add(chain[i], "full");
        }
        index.add(chain[0], "half");
        index.add(chain[1], "half");
        index.add(chain[1], "gap"); // misses block 0

        Conversation conversation = ConversationParser.parse(json("{\"system\":" + quote(SYSTEM)
                + ",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
                + quote(QUESTION.substring(0, 40)) + "},{\"type\":\"image\",\"source\":{}},{\"type\":\"text\","
                + "\"text\":" + quote(QUESTION.substring(40)) + "}]}]}"));
        PrefixLookup.Result result = lookup.lookup(conversation);

        assertThat(result.promptBlocks()).isEqualTo(chain.length);
        assertThat(result.blockSize()).isEqualTo(16);
        assertThat(result.promptTokens()).isBetween(chain.length * 16, chain.length * 16 + 15);
        assertThat(result.nodes()).containsExactly(
                new PrefixLookup.NodeOverlap("full", chain.length, 1.0),
                new PrefixLookup.NodeOverlap("half", 2, 2.0 / chain.length));
    }

    @Test
    void toolBlocksContributeTheirNameInputAndResultTextAsOnTheNodes() {
        Conversation conversation = ConversationParser.parse(json("{\"messages\":[{\"role\":\"assistant\",\"content\":"
                + "[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"lookup\",\"input\":{\"customer\":4411}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"three invoices\"}]}]}]}"));
        assertThat(conversation.system()).isEmpty();
        assertThat(conversation.turns()).extracting(turn -> turn.text())
                .containsExactly("lookup{\"customer\":4411}", "three invoices");
    }

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("", "request body is empty"),
                Arguments.of("{\"messages\": [", "not valid JSON"),
                Arguments.of("[1,2]", "must be a JSON object"),
                Arguments.of("{}", "messages: Field required"),
                Arguments.of("{\"messages\":[]}", "messages: must be a non-empty array"),
                Arguments.of("{\"messages\":\"hi\"}", "messages: must be a non-empty array"),
                Arguments.of("{\"messages\":[\"hi\"]}", "messages.0: must be an object"),
                Arguments.of("{\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}", "messages.0.role"),
                Arguments.of("{\"messages\":[{\"role\":\"user\"}]}", "messages.0.content: Field required"),
                Arguments.of("{\"messages\":[{\"role\":\"user\",\"content\":7}]}", "messages.0.content: must be"),
                Arguments.of("{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"x\"}]}]}",
                        "messages.0.content.0.type: Field required"),
                Arguments.of("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":5}]}]}",
                        "messages.0.content.0.text: must be a string"),
                Arguments.of("{\"system\":42,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "system: must be"));
    }

    @ParameterizedTest
    @MethodSource("badBodies")
    void refusesMalformedBodiesNamingTheField(String body, String message) {
        assertThatThrownBy(() -> ConversationParser.parse(json(body))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusesInvalidUtf8AndNeverQuotesThePrompt() {
        assertThatThrownBy(() -> ConversationParser.parse(new byte[] {'{', (byte) 0xC3, '}'}))
                .hasMessageContaining("not valid UTF-8");
        assertThatThrownBy(() -> ConversationParser.parse(json(
                "{\"messages\":[{\"role\":\"user\",\"content\":{\"secret\":\"do not echo me\"}}]}")))
                .hasMessageNotContaining("do not echo me");
        assertThatThrownBy(() -> ConversationParser.parse(null)).isInstanceOf(InvalidRequestException.class);
    }

    private static String quote(String text) {
        return "\"" + text.replace("\"", "\\\"") + "\"";
    }
}
