package dev.zerolayer.routing.tokens;

/**
 * Tokens an image or a PDF costs by the providers' published formulas: Anthropic {@code width × height / 750} after
 * scaling into 1568 px on the long edge and 1,600 tokens; OpenAI 85 at low detail, else 85 + 170 per 512 px tile
 * after fitting 2048 × 2048 and a 768 px shortest side. An image of unknown size costs the most the formula allows.
 */
public final class MediaTokens {

    /** Anthropic: the longest edge an image keeps before it is scaled down. */
    static final int ANTHROPIC_MAX_EDGE = 1568;
    /** Anthropic: the most tokens one image costs (larger ones are scaled down to about this). */
    static final int ANTHROPIC_MAX_TOKENS = 1600;
    /** OpenAI: the base cost of every image, and the whole cost at low detail. */
    static final int OPENAI_BASE = 85;
    static final int OPENAI_PER_TILE = 170;
    /** OpenAI high detail at its largest: 768 × 2048 px, 2 × 4 tiles. */
    static final int OPENAI_MAX_TOKENS = OPENAI_BASE + OPENAI_PER_TILE * 8;
    /** A PDF page: its text and its page image, as both providers bill a page (an estimate: 1,500 + one image). */
    public static final int PDF_PAGE_TOKENS = 1500 + ANTHROPIC_MAX_TOKENS;

    private MediaTokens() {
    }

    public static int anthropicImage(ImageSize size) {
        if (!size.known()) {
            return ANTHROPIC_MAX_TOKENS;
        }
        double width = size.width();
        double height = size.height();
        double edge = Math.max(width, height);
        if (edge > ANTHROPIC_MAX_EDGE) {
            width *= ANTHROPIC_MAX_EDGE / edge;
            height *= ANTHROPIC_MAX_EDGE / edge;
        }
        double tokens = width * height / 750.0;
        return (int) Math.max(1, Math.min(ANTHROPIC_MAX_TOKENS, Math.ceil(tokens)));
    }

    /** @param lowDetail OpenAI {@code detail: "low"} ({@code high} and {@code auto} count as high) */
    public static int openAiImage(ImageSize size, boolean lowDetail) {
        if (lowDetail) {
            return OPENAI_BASE;
        }
        if (!size.known()) {
            return OPENAI_MAX_TOKENS;
        }
        double width = size.width();
        double height = size.height();
        double fit = Math.min(1.0, 2048.0 / Math.max(width, height));
        width *= fit;
        height *= fit;
        double shortest = Math.min(width, height);
        if (shortest > 768) {
            width *= 768 / shortest;
            height *= 768 / shortest;
        }
        long tiles = (long) Math.ceil(Math.round(width) / 512.0) * (long) Math.ceil(Math.round(height) / 512.0);
        return (int) Math.min(OPENAI_MAX_TOKENS, OPENAI_BASE + OPENAI_PER_TILE * Math.max(1, tiles));
    }

    /** Pages of a base64 PDF (its {@code /Type /Page} objects; at least one), times {@link #PDF_PAGE_TOKENS}. */
    public static int pdf(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return PDF_PAGE_TOKENS;
        }
        byte[] bytes;
        try {
            bytes = java.util.Base64.getMimeDecoder().decode(base64.length() % 4 == 0 ? base64
                    : base64.substring(0, base64.length() & ~3));
        } catch (IllegalArgumentException e) {
            return PDF_PAGE_TOKENS;
        }
        return Math.max(1, pages(bytes)) * PDF_PAGE_TOKENS;
    }

    static int pages(byte[] pdf) {
        byte[] mark = "/Type".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int pages = 0;
        for (int i = 0; i + mark.length < pdf.length; i++) {
            if (!matches(pdf, i, mark)) {
                continue;
            }
            int at = i + mark.length;
            while (at < pdf.length && (pdf[at] == ' ' || pdf[at] == '\n' || pdf[at] == '\r')) {
                at++;
            }
            if (at + 5 <= pdf.length && matches(pdf, at, "/Page".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                    && (at + 5 == pdf.length || !Character.isLetter(pdf[at + 5]))) {
                pages++;
            }
        }
        return pages;
    }

    private static boolean matches(byte[] bytes, int at, byte[] part) {
        if (at + part.length > bytes.length) {
            return false;
        }
        for (int i = 0; i < part.length; i++) {
            if (bytes[at + i] != part[i]) {
                return false;
            }
        }
        return true;
    }
}
