package dev.zerolayer.simulator.node;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;

/**
 * Counts and encodes prompts with the BPE encoding {@code cl100k_base}, loaded once per process and shared by every node.
 * A prompt's token ids are its texts' ids concatenated in order (system first); its input token count follows OpenAI's
 * cl100k chat accounting, as routing-core's {@code TokenCounter} does: the texts' tokens, plus
 * {@value #TOKENS_PER_MESSAGE} per message (a system prompt counts as one), plus {@value #TOKENS_PER_REPLY}.
 */
public final class PromptTokenizer {

    static final int TOKENS_PER_MESSAGE = 3;
    static final int TOKENS_PER_REPLY = 3;

    private static final class Holder {
        static final PromptTokenizer SHARED = new PromptTokenizer(
                Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE));
    }

    /** A prompt's token ids (for prefix hashing) and its input token count (for usage). */
    public record PromptTokens(int[] ids, int inputTokens) {
    }

    private final Encoding encoding;

    private PromptTokenizer(Encoding encoding) {
        this.encoding = encoding;
    }

    /** The process-wide tokenizer (loads the encoding on first use, about 1.8 s). */
    public static PromptTokenizer shared() {
        return Holder.SHARED;
    }

    public int[] encode(String text) {
        return text == null || text.isEmpty() ? new int[0] : encoding.encodeOrdinary(text).toArray();
    }

    public int count(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /** Token ids and input tokens of a prompt made of {@code messages} messages whose texts are {@code texts}. */
    public PromptTokens tokens(List<String> texts, int messages) {
        return tokens(texts, messages, List.of());
    }

    /** As {@link #tokens(List, int)}, with tool definitions counted as input tokens (they are not hashed). */
    public PromptTokens tokens(List<String> texts, int messages, List<String> definitions) {
        int[][] parts = new int[texts.size()][];
        int total = 0;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = encode(texts.get(i));
            total += parts[i].length;
        }
        int[] ids = new int[total];
        int at = 0;
        for (int[] part : parts) {
            System.arraycopy(part, 0, ids, at, part.length);
            at += part.length;
        }
        int extra = 0;
        for (String definition : definitions) {
            extra += count(definition);
        }
        return new PromptTokens(ids, total + extra + TOKENS_PER_MESSAGE * messages + TOKENS_PER_REPLY);
    }
}
