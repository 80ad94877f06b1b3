package dev.zerolayer.routing.complexity;

import java.text.Normalizer;
import java.util.Arrays;

/**
 * A text's words, word pairs and character trigrams hashed into {@code 2^bits} buckets, each present bucket weighted
 * equally and the vector scaled to unit length; the text is normalised first (NFKC, lower case, only letters, digits
 * and punctuation kept, every run of anything else one space; see {@link #normalise}), so padding with emoji, symbols
 * or whitespace changes nothing. Han, Hiragana and Katakana characters are each a word of their own.
 */
public final class HashedNgrams {

    /** The encoder's identity and version as a complexity model names it: change it when the features change. */
    public static final String ENCODER = "hashed-ngrams-v1";

    /** Normalised characters read at most (the head of a long prompt carries its kind). */
    public static final int MAX_CHARS = 3_000;

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
        int count = buckets(normal, buckets);
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

    /** Per-thread scratch of {@link #dot}: the buckets of one text and which of them were seen. */
    private static final class Scratch {
        final int[] buckets = new int[MAX_CHARS * 3 + 16];
        long[] seen = new long[0];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * {@code features(text).dot(weights)} without sorting or allocating per call (the request path): distinct buckets
     * are found with a per-thread bit set that is cleared after use.
     */
    public double dot(String text, float[] weights) {
        if (weights.length != dimension()) {
            throw new IllegalArgumentException("expected " + dimension() + " weights, got " + weights.length);
        }
        Scratch scratch = SCRATCH.get();
        if (scratch.seen.length < dimension() / 64 + 1) {
            scratch.seen = new long[dimension() / 64 + 1];
        }
        long[] seen = scratch.seen;
        int[] buckets = scratch.buckets;
        int count = buckets(normalise(text), buckets);
        double sum = 0;
        int distinct = 0;
        for (int k = 0; k < count; k++) {
            int bucket = buckets[k];
            long bit = 1L << bucket;
            if ((seen[bucket >>> 6] & bit) == 0) {
                seen[bucket >>> 6] |= bit;
                sum += weights[bucket];
                distinct++;
            }
        }
        for (int k = 0; k < count; k++) {
            seen[buckets[k] >>> 6] = 0;
        }
        return distinct == 0 ? 0 : sum / Math.sqrt(distinct);
    }

    /** Writes the bucket of every word, word pair and character trigram of a normalised text; returns how many. */
    private int buckets(String normal, int[] buckets) {
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
        long window = 0;
        for (int k = 0; k < n; k++) {
            // the last three UTF-16 units, 21 bits each
            window = ((window << 21) | normal.charAt(k)) & 0x7FFF_FFFF_FFFF_FFFFL;
            if (k >= 2 && count < buckets.length) {
                buckets[count++] = (int) (mix(window, TRIGRAM) & mask);
            }
        }
        return count;
    }

    private int add(int[] buckets, int count, long hash) {
        if (count == buckets.length) {
            return count;
        }
        buckets[count] = (int) (hash & mask);
        return count + 1;
    }

    /** Non-ASCII characters normalised together at most (a longer run is normalised in pieces). */
    private static final int RUN = 256;
    private static final boolean[] KEEP_ASCII = new boolean[128];

    static {
        for (int c = 0; c < 128; c++) {
            KEEP_ASCII[c] = Character.isLetterOrDigit(c) || isPunctuation(c);
        }
    }

    /**
     * Lower case, letters, digits and punctuation kept, every run of anything else one space, at most {@link
     * #MAX_CHARS} characters; each run of non-ASCII characters (up to {@value #RUN}) is NFKC-normalised first. The text
     * beyond what the output needs is not read.
     */
    static String normalise(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 16);
        boolean space = true;
        int n = text.length();
        int i = 0;
        while (i < n && out.length() < MAX_CHARS) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (KEEP_ASCII[c]) {
                    out.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
                    space = false;
                } else if (!space) {
                    out.append(' ');
                    space = true;
                }
                i++;
                continue;
            }
            int end = i + 1;
            while (end < n && text.charAt(end) >= 0x80 && end - i < RUN) {
                end++;
            }
            if (end < n && Character.isHighSurrogate(text.charAt(end - 1))) {
                end++;
            }
            String run = Normalizer.normalize(text.substring(i, end), Normalizer.Form.NFKC)
                    .toLowerCase(java.util.Locale.ROOT);
            for (int k = 0; k < run.length();) {
                int cp = run.codePointAt(k);
                k += Character.charCount(cp);
                if (cp < 0x80 ? KEEP_ASCII[cp] : Character.isLetterOrDigit(cp) || isPunctuation(cp)) {
                    out.appendCodePoint(cp);
                    space = false;
                } else if (!space) {
                    out.append(' ');
                    space = true;
                }
            }
            i = end;
        }
        if (out.length() > MAX_CHARS) {
            out.setLength(Character.isHighSurrogate(out.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS);
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
        if (c < 0x2E80) {
            return false;
        }
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
