package dev.zerolayer.routing.tokens;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Which encoding counts a model alias's tokens: the alias's configured encoding, else the table's default encoding. */
public final class TokenizerTable {

    private final String defaultEncoding;
    private final Map<String, String> encodingByAlias;

    /**
     * @param defaultEncoding the encoding of aliases not in the map
     * @param encodingByAlias model alias (case-insensitive) to encoding name; every name must be a known encoding
     */
    public TokenizerTable(String defaultEncoding, Map<String, String> encodingByAlias) {
        Objects.requireNonNull(encodingByAlias, "encodingByAlias");
        this.defaultEncoding = checked(defaultEncoding);
        Map<String, String> byAlias = new TreeMap<>();
        encodingByAlias.forEach((alias, encoding) -> {
            if (alias == null || alias.isBlank()) {
                throw new IllegalArgumentException("blank model alias in tokenizer table");
            }
            byAlias.put(normalise(alias), checked(encoding));
        });
        this.encodingByAlias = Map.copyOf(byAlias);
    }

    /** Every alias on {@value TokenCounter#DEFAULT_ENCODING}. */
    public static TokenizerTable defaults() {
        return new TokenizerTable(TokenCounter.DEFAULT_ENCODING, Map.of());
    }

    public String defaultEncoding() {
        return defaultEncoding;
    }

    /** The encoding name for a model alias (null or unknown alias: the default). */
    public String encodingFor(String modelAlias) {
        if (modelAlias == null) {
            return defaultEncoding;
        }
        return encodingByAlias.getOrDefault(normalise(modelAlias), defaultEncoding);
    }

    /** The shared counter for a model alias. */
    public TokenCounter counterFor(String modelAlias) {
        return TokenCounter.of(encodingFor(modelAlias));
    }

    private static String checked(String encoding) {
        if (!TokenCounter.isKnownEncoding(encoding)) {
            throw new IllegalArgumentException("unknown tokenizer encoding '" + encoding + "'");
        }
        return encoding.trim();
    }

    private static String normalise(String alias) {
        return alias.trim().toLowerCase(Locale.ROOT);
    }
}
