package dev.zerolayer.routing.tokens;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Real BPE token counts for one JTokkit encoding; each encoding is loaded once per process (about 1.8 s) and shared by
 * every caller, counting is thread-safe, and special-token text such as {@code <|endoftext|>} counts as ordinary text.
 */
public final class TokenCounter {

    /** The encoding used when nothing else is configured. */
    public static final String DEFAULT_ENCODING = "cl100k_base";
    /** Tokens a chat message costs beyond its text (role and separators), as in OpenAI's cl100k accounting. */
    public static final int TOKENS_PER_MESSAGE = 3;
    /** Tokens that prime the reply after the last message. */
    public static final int TOKENS_PER_REPLY = 3;

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    private static final ConcurrentMap<EncodingType, TokenCounter> COUNTERS = new ConcurrentHashMap<>();

    private final Encoding encoding;

    private TokenCounter(Encoding encoding) {
        this.encoding = encoding;
    }

    /** The shared counter of an encoding name (e.g. {@code cl100k_base}, {@code o200k_base}); loads it on first use. */
    public static TokenCounter of(String encodingName) {
        EncodingType type = encodingType(encodingName);
        return COUNTERS.computeIfAbsent(type, t -> new TokenCounter(REGISTRY.getEncoding(t)));
    }

    /** The shared counter of {@value #DEFAULT_ENCODING}. */
    public static TokenCounter defaultCounter() {
        return of(DEFAULT_ENCODING);
    }

    /** Whether an encoding name is one JTokkit knows, without loading it. */
    public static boolean isKnownEncoding(String encodingName) {
        return encodingName != null && EncodingType.fromName(encodingName.trim()).isPresent();
    }

    static EncodingType encodingType(String encodingName) {
        Objects.requireNonNull(encodingName, "encodingName");
        return EncodingType.fromName(encodingName.trim())
                .orElseThrow(() -> new IllegalArgumentException("unknown tokenizer encoding '" + encodingName + "'"));
    }

    public String encoding() {
        return encoding.getName();
    }

    /** Tokens of a text; null and empty count 0. */
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        int shape = shape(text);
        if ((shape & MALFORMED) != 0) {
            text = wellFormed(text);
        }
        if ((shape & LONG_RUN) == 0) {
            return encoding.countTokensOrdinary(text);
        }
        int total = 0;
        for (String piece : pieces(text)) {
            total += encoding.countTokensOrdinary(piece);
        }
        return total;
    }

    /**
     * A conversation's token ids for prefix hashing (the system text's ids, then each turn's text's ids, concatenated
     * in order, as the simulated nodes hash them) and its token count as {@link #count(Conversation)} gives it.
     */
    public Encoded encode(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        return encode(parts(conversation));
    }

    /**
     * A prompt's token ids for prefix hashing (its texts' ids concatenated in order) and its token count: those
     * tokens, the extra texts' tokens, the tokens counted already, {@value #TOKENS_PER_MESSAGE} per message and
     * {@value #TOKENS_PER_REPLY} for the reply.
     */
    public Encoded encode(PromptParts prompt) {
        Objects.requireNonNull(prompt, "prompt");
        List<String> texts = prompt.texts();
        int[][] parts = new int[texts.size()][];
        int total = 0;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = ids(texts.get(i));
            total += parts[i].length;
        }
        int[] ids = concat(java.util.Arrays.asList(parts), total);
        long count = (long) total + extraTokens(prompt) + TOKENS_PER_REPLY + (long) TOKENS_PER_MESSAGE * prompt.messages();
        return new Encoded(ids, (int) Math.min(Integer.MAX_VALUE, count));
    }

    /** A prompt's token count as {@link #encode(PromptParts)} gives it, without keeping the ids. */
    public int count(PromptParts prompt) {
        Objects.requireNonNull(prompt, "prompt");
        long count = extraTokens(prompt) + TOKENS_PER_REPLY + (long) TOKENS_PER_MESSAGE * prompt.messages();
        for (String text : prompt.texts()) {
            count += count(text);
        }
        return (int) Math.min(Integer.MAX_VALUE, count);
    }

    private long extraTokens(PromptParts prompt) {
        long extra = prompt.countedTokens();
        for (String text : prompt.extraTexts()) {
            extra += count(text);
        }
        return extra;
    }

    /** A conversation as prompt parts: the system text (a message when not empty), then each turn's text. */
    static PromptParts parts(Conversation conversation) {
        List<String> texts = new java.util.ArrayList<>(conversation.turns().size() + 1);
        texts.add(conversation.system());
        for (Turn turn : conversation.turns()) {
            texts.add(turn.text());
        }
        int messages = conversation.turns().size() + (conversation.system().isEmpty() ? 0 : 1);
        return new PromptParts(texts, messages, List.of(), 0);
    }

    private int[] ids(String text) {
        if (text == null || text.isEmpty()) {
            return new int[0];
        }
        int shape = shape(text);
        if ((shape & MALFORMED) != 0) {
            text = wellFormed(text);
        }
        if ((shape & LONG_RUN) == 0) {
            return encoding.encodeOrdinary(text).toArray();
        }
        java.util.List<int[]> parts = new java.util.ArrayList<>();
        int total = 0;
        for (String piece : pieces(text)) {
            int[] ids = encoding.encodeOrdinary(piece).toArray();
            parts.add(ids);
            total += ids.length;
        }
        return concat(parts, total);
    }

    /** The parts' ids one after another ({@code total}: their summed length). */
    static int[] concat(java.util.List<int[]> parts, int total) {
        int[] ids = new int[total];
        int at = 0;
        for (int[] part : parts) {
            System.arraycopy(part, 0, ids, at, part.length);
            at += part.length;
        }
        return ids;
    }

    /** A conversation's token ids (texts only) and its chat token count (texts plus message overhead). */
    public record Encoded(int[] ids, int tokenCount) {
    }

    /**
     * Tokens of a conversation as a chat model sees it: every message's text plus {@value #TOKENS_PER_MESSAGE} per
     * message (the system prompt counts as one message when present) plus {@value #TOKENS_PER_REPLY} for the reply.
     */
    public int count(Conversation conversation) {
        Objects.requireNonNull(conversation, "conversation");
        int total = TOKENS_PER_REPLY;
        if (!conversation.system().isEmpty()) {
            total += TOKENS_PER_MESSAGE + count(conversation.system());
        }
        for (Turn turn : conversation.turns()) {
            total += TOKENS_PER_MESSAGE + count(turn.text());
        }
        return total;
    }

    /**
     * Longest run of non-whitespace characters BPE gets in one piece. BPE merging is quadratic in a pre-tokenized
     * word's length, so a megabyte without spaces would take many seconds; longer runs are cut into pieces of this
     * size (their token count can differ by a token or so per cut, ordinary text is never cut).
     */
    static final int MAX_RUN = 256;

    /** {@link #shape}: a run of non-whitespace longer than {@link #MAX_RUN}. */
    static final int LONG_RUN = 1;
    /** {@link #shape}: a surrogate without its pair (a JSON string may carry one; it is no UTF-8 text). */
    static final int MALFORMED = 2;

    static boolean hasLongRun(String text) {
        return (shape(text) & LONG_RUN) != 0;
    }

    /** What the tokenizer must be spared in one pass over the text: {@link #LONG_RUN}, {@link #MALFORMED}. */
    static int shape(String text) {
        int shape = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                run = 0;
            } else if (++run > MAX_RUN) {
                shape |= LONG_RUN;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    if (++run > MAX_RUN) {
                        shape |= LONG_RUN;
                    }
                } else {
                    shape |= MALFORMED;
                }
            }
        }
        return shape;
    }

    /** The text with each unpaired surrogate replaced by U+FFFD, as a UTF-8 encoder would. */
    static String wellFormed(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }

    /** The text cut after every {@value #MAX_RUN} consecutive non-whitespace characters (never inside a surrogate pair). */
    static java.util.List<String> pieces(String text) {
        java.util.List<String> pieces = new java.util.ArrayList<>();
        int start = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i))) {
                run = 0;
            } else if (++run >= MAX_RUN && !Character.isHighSurrogate(text.charAt(i))) {
                pieces.add(text.substring(start, i + 1));
                start = i + 1;
                run = 0;
            }
        }
        if (start < text.length()) {
            pieces.add(text.substring(start));
        }
        return pieces;
    }
}
