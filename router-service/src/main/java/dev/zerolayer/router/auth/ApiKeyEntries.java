package dev.zerolayer.router.auth;

import dev.zerolayer.router.state.SessionKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One client-key entry is either {@code sha256:<64 hex>} (the key's SHA-256, so configuration holds no key) or the key
 * itself (printable ASCII, no spaces), and becomes the 32-byte hash the authenticator holds; a refusal names the
 * entry's position and why, never its content.
 */
public final class ApiKeyEntries {

    /** Prefix of an entry given as a hash: {@code sha256:} and the key's SHA-256 in 64 hex characters. */
    public static final String HASH_PREFIX = "sha256:";

    /** An entry that is neither a hash nor a usable key; the message names the position only. */
    public static final class InvalidEntryException extends IllegalArgumentException {

        private final int position;

        InvalidEntryException(String where, int position, String why) {
            super(where + " " + position + ": " + why);
            this.position = position;
        }

        /** The entry's 1-based line number (keys file) or position (comma-separated list). */
        public int position() {
            return position;
        }
    }

    private ApiKeyEntries() {
    }

    /**
     * The hashes of a comma-separated list ({@code zerolayer.api-keys}); blank entries are skipped.
     *
     * @throws InvalidEntryException naming the entry's 1-based position
     */
    public static List<byte[]> parseList(String commaSeparated) {
        List<byte[]> hashes = new ArrayList<>();
        if (commaSeparated == null) {
            return hashes;
        }
        String[] entries = commaSeparated.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].trim();
            if (!entry.isEmpty()) {
                hashes.add(parse(entry, "zerolayer.api-keys entry", i + 1));
            }
        }
        return hashes;
    }

    /**
     * The hashes of a keys file's lines: one entry per line, surrounding blanks ignored, empty lines and lines starting
     * with {@code #} skipped.
     *
     * @throws InvalidEntryException naming the first bad line's 1-based number
     */
    public static List<byte[]> parseLines(List<String> lines) {
        List<byte[]> hashes = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                hashes.add(parse(line, "line", i + 1));
            }
        }
        return hashes;
    }

    /** The SHA-256 of a key, as held and as written after {@link #HASH_PREFIX}. */
    public static byte[] hash(String key) {
        return SessionKeys.sha256(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The entry that configures {@code key} without naming it: {@code sha256:} and its hex hash. */
    public static String hashedEntry(String key) {
        return HASH_PREFIX + HexFormat.of().formatHex(hash(key));
    }

    private static byte[] parse(String entry, String where, int position) {
        if (entry.regionMatches(true, 0, HASH_PREFIX, 0, HASH_PREFIX.length())) {
            String hex = entry.substring(HASH_PREFIX.length());
            if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new InvalidEntryException(where, position,
                        "a sha256: entry needs exactly 64 hexadecimal characters");
            }
            return HexFormat.of().parseHex(hex);
        }
        if (!entry.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new InvalidEntryException(where, position,
                    "a key must be printable ASCII without spaces (or given as sha256:<64 hex>)");
        }
        return hash(entry);
    }
}
