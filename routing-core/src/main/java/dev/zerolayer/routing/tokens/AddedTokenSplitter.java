package dev.zerolayer.routing.tokens;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Encodes a text as a Hugging Face tokenizer does, piece by piece: the tokenizer cuts its added tokens (leftmost,
 * longest first) out of the text before it normalizes and pre-tokenizes what lies between, so the ids of the whole
 * are the added tokens' ids and each run of ordinary text encoded on its own. Runs of at least
 * {@value #CACHED_MIN_CHARS} characters are kept (least recently used first out, {@value #CACHE_CHARS} characters in
 * all), so a conversation's system prompt and earlier turns are encoded once, not on every request. Only tokenizers
 * whose added tokens are matched as they are (not normalized, no whitespace stripped, not whole-word only) can be
 * cut this way; for others {@link #of} gives null.
 */
final class AddedTokenSplitter {

    static final int CACHED_MIN_CHARS = 64;
    static final long CACHE_CHARS = 16L * 1024 * 1024;

    /** Added tokens by first character, longest first. */
    private final Map<Character, List<Map.Entry<String, Integer>>> byFirst;
    private final Function<String, int[]> encoder;
    private final Map<String, int[]> cache = new LinkedHashMap<>(256, 0.75f, true);
    private long cachedChars;

    private AddedTokenSplitter(Map<Character, List<Map.Entry<String, Integer>>> byFirst,
            Function<String, int[]> encoder) {
        this.byFirst = byFirst;
        this.encoder = encoder;
    }

    /**
     * @param added   each added token's text and id, with whether it is matched as it is
     * @param encoder how a run of ordinary text (no added token in it) is encoded
     * @return the splitter, or null when some added token is normalized, strips whitespace or matches whole words only
     */
    static AddedTokenSplitter of(List<AddedToken> added, Function<String, int[]> encoder) {
        Map<Character, List<Map.Entry<String, Integer>>> byFirst = new HashMap<>();
        for (AddedToken token : added) {
            if (!token.matchedAsIs()) {
                return null;
            }
            if (!token.content().isEmpty()) {
                byFirst.computeIfAbsent(token.content().charAt(0), c -> new ArrayList<>())
                        .add(Map.entry(token.content(), token.id()));
            }
        }
        byFirst.values().forEach(list -> list.sort(Comparator.comparingInt(
                (Map.Entry<String, Integer> e) -> e.getKey().length()).reversed()));
        return new AddedTokenSplitter(byFirst, encoder);
    }

    /** An added token of the tokenizer, and whether it is matched as it is (the only kind this cuts around). */
    record AddedToken(String content, int id, boolean matchedAsIs) {
    }

    int[] encode(String text) {
        List<int[]> parts = new ArrayList<>();
        int total = 0;
        int start = 0;
        int i = 0;
        while (i < text.length()) {
            List<Map.Entry<String, Integer>> candidates = byFirst.get(text.charAt(i));
            Map.Entry<String, Integer> match = null;
            if (candidates != null) {
                for (Map.Entry<String, Integer> candidate : candidates) {
                    if (text.startsWith(candidate.getKey(), i)) {
                        match = candidate;
                        break;
                    }
                }
            }
            if (match == null) {
                i++;
                continue;
            }
            if (i > start) {
                int[] run = run(text.substring(start, i));
                parts.add(run);
                total += run.length;
            }
            parts.add(new int[] {match.getValue()});
            total++;
            i += match.getKey().length();
            start = i;
        }
        if (start < text.length()) {
            int[] run = run(start == 0 ? text : text.substring(start));
            parts.add(run);
            total += run.length;
        }
        return TokenCounter.concat(parts, total);
    }

    private int[] run(String text) {
        if (text.length() < CACHED_MIN_CHARS) {
            return encoder.apply(text);
        }
        synchronized (cache) {
            int[] known = cache.get(text);
            if (known != null) {
                return known;
            }
        }
        int[] ids = encoder.apply(text);
        synchronized (cache) {
            if (cache.put(text, ids) == null) {
                cachedChars += text.length();
            }
            var oldest = cache.entrySet().iterator();
            while (cachedChars > CACHE_CHARS && oldest.hasNext()) {
                cachedChars -= oldest.next().getKey().length();
                oldest.remove();
            }
        }
        return ids;
    }
}
