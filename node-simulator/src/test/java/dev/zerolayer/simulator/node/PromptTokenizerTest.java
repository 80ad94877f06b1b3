package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Input tokens follow the same cl100k chat accounting as routing-core's token counter; ids concatenate the texts. */
class PromptTokenizerTest {

    private final PromptTokenizer tokenizer = PromptTokenizer.shared();

    @Test
    void inputTokensMatchTheRoutersTokenCounter() {
        String system = "You are a terse assistant. Answer in one line.";
        String user = "Summarise the quarterly report: revenue rose 12 %, costs fell 3 %, 数据来自财务部。";
        String assistant = "Revenue up 12 %, costs down 3 %.";
        String again = "Now as three bullet points, please.";

        PromptTokenizer.PromptTokens tokens = tokenizer.tokens(List.of(system, user, assistant, again), 4);

        int expected = TokenCounter.defaultCounter().count(new Conversation(system,
                List.of(Turn.user(user), Turn.assistant(assistant), Turn.user(again))));
        assertThat(tokens.inputTokens()).isEqualTo(expected);
        assertThat(tokens.ids()).hasSize(tokenizer.count(system) + tokenizer.count(user) + tokenizer.count(assistant)
                + tokenizer.count(again));
    }

    @Test
    void equalPromptsGiveEqualIdsAndALongerConversationExtendsThem() {
        int[] first = tokenizer.tokens(List.of("hello there", "how are you"), 2).ids();
        int[] longer = tokenizer.tokens(List.of("hello there", "how are you", "fine, thanks"), 3).ids();

        assertThat(java.util.Arrays.copyOf(longer, first.length)).containsExactly(first);
        assertThat(tokenizer.tokens(List.of(""), 1).inputTokens()).isEqualTo(6);
    }
}
