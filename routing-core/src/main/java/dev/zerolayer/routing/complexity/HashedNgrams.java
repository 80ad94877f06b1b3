package dev.zerolayer.routing.complexity;

import java.text.Normalizer;
import java.util.Arrays;

/**
 * A text's words, word pairs and character trigrams hashed into {@code 2^bits} buckets, each present bucket weighted
 * equally and the vector scaled to unit length; the text is normalised first (NFKC, lower case, only letters, digits
 * and punctuation kept, every run of anything else one space), so padding with emoji, symbols or whitespace changes
 * nothing. Han, Hiragana and Katakana characters are each a word of their own.
 */
public final class HashedNgrams {

    /** Normalised characters read at most (the head of a long prompt carries its kind). */
    public static final int MAX_CHARS = 6_000;

    private static final long WORD = 0x9E3779B97F4A7C15L;
    private static final long PAIR = 0xC2B2AE3D27D4EB4FL;
    private static final long TRIGRAM = 0x165667B19E3779F9L;

    private final int bits;
    private final int mask;

    public HashedNgrams(int bits) {
        if (bits < 4 || bits > 24) {
            throw new IllegalArgumentException("bits must be within 4..24");
        }
        this.bits = bits;
        this.mask = (1 << bits) - 1;
    }

    public int bits() {
        return bits;
    }

    public int dimension() {
        return 1 << bits;
    }

    /** A sparse unit vector: sorted distinct bucket indices, each with the same value. */
    public record Sparse(int[] indices, double value) {

        public double dot(double[] weights) {
            double sum = 0;
            for (int index : indices) {
                sum += weights[index];
            }
            return sum * value;
        }
    }

    public Sparse features(String text) {
        String normal = normalise(text);
        int[] buckets = new int[Math.max(16, normal.length() * 3)];
        int count = 0;
        long previous = 0;
        boolean hasPrevious = false;
        int i = 0;
        int n = normal.length();
        while (i < n) {
            int c = normal.codePointAt(i);
            if (c == ' ') {
                i++;
                continue;
            }
            int end = i + Character.charCount(c);
            if (!ownWord(c) && Character.isLetterOrDigit(c)) {
                while (end < n) {
                    int next = normal.codePointAt(end);
                    if (!Character.isLetterOrDigit(next) || ownWord(next)) {
                        break;
                    }
                    end += Character.charCount(next);
                }
            }
            long word = hash(normal, i, end, WORD);
            count = add(buckets, count, word);
            if (hasPrevious) {
                count = add(buckets, count, mix(previous * 31 + word, PAIR));
            }
            previous = word;
            hasPrevious = true;
            i = end;
        }
        for (int start = 0; start + 3 <= n; start++) {
            count = add(buckets, count, hash(normal, start, start + 3, TRIGRAM));
        }
        int[] sorted = Arrays.copyOf(buckets, count);
        Arrays.sort(sorted);
        int distinct = 0;
        for (int k = 0; k < sorted.length; k++) {
            if (k == 0 || sorted[k] != sorted[k - 1]) {
                sorted[distinct++] = sorted[k];
            }
        }
        int[] indices = Arrays.copyOf(sorted, distinct);
        return new Sparse(indices, distinct == 0 ? 0 : 1 / Math.sqrt(distinct));
    }

    private int add(int[] buckets, int count, long hash) {
        if (count == buckets.length) {
            return count;
        }
        buckets[count] = (int) (hash & mask);
        return count + 1;
    }

    /** NFKC, lower case, letters, digits and punctuation kept, anything else one space; at most {@link #MAX_CHARS}. */
    static String normalise(String text) {
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(java.util.Locale.ROOT);
        StringBuilder out = new StringBuilder(Math.min(folded.length(), MAX_CHARS));
        boolean space = true;
        for (int i = 0; i < folded.length() && out.length() < MAX_CHARS;) {
            int c = folded.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c) || isPunctuation(c)) {
                out.appendCodePoint(c);
                space = false;
            } else if (!space) {
                out.append(' ');
                space = true;
            }
        }
        int length = out.length();
        if (length > 0 && out.charAt(length - 1) == ' ') {
            out.setLength(length - 1);
        }
        return out.toString();
    }

    private static boolean isPunctuation(int c) {
        switch (Character.getType(c)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL -> {
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static boolean ownWord(int c) {
        Character.UnicodeScript script = Character.UnicodeScript.of(c);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA;
    }

    private static long hash(String text, int start, int end, long salt) {
        long h = salt;
        for (int i = start; i < end; i++) {
            h = (h ^ text.charAt(i)) * 0x100000001B3L;
        }
        return mix(h, salt);
    }

    private static long mix(long z, long salt) {
        z ^= salt;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
