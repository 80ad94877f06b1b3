package dev.zerolayer.router.auth;

import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.state.SessionKeys;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client authentication: with keys configured, {@code x-api-key} or {@code Authorization: Bearer} must match one (only
 * SHA-256 hashes are held, compared in constant time against every one) or the request gets 401; with none configured
 * and no keys file, only loopback clients are served. The keys of {@code zerolayer.api-keys} are fixed; those of the keys
 * file are replaced as a whole ({@link #replaceFileKeys}) by swapping one immutable set, so a request sees either the old
 * or the new set. The key's id is a hash prefix, never the key.
 */
public class ApiKeyAuthenticator {

    public static final String ANONYMOUS = "anonymous";
    private static final Logger log = LoggerFactory.getLogger(ApiKeyAuthenticator.class);

    /** The keys in force: configured hashes then the file's, never changed once built. */
    private record KeySet(List<byte[]> configured, List<byte[]> fromFile) {

        KeySet {
            configured = List.copyOf(configured);
            fromFile = List.copyOf(fromFile);
        }

        int size() {
            return configured.size() + fromFile.size();
        }
    }

    private final boolean keysFile;
    private volatile KeySet keys;

    /** Keys from {@code zerolayer.api-keys} only (comma-separated keys or {@code sha256:} hashes). */
    public ApiKeyAuthenticator(String commaSeparatedKeys) {
        this(commaSeparatedKeys, false);
    }

    /**
     * @param commaSeparatedKeys {@code zerolayer.api-keys}: keys or {@code sha256:<64 hex>} hashes
     * @param keysFile           whether a keys file adds keys: then a key is always demanded, even when the file
     *                           holds none (an emptied file revokes every file key, it does not open the gateway)
     * @throws ApiKeyEntries.InvalidEntryException naming the position of an unusable entry
     */
    public ApiKeyAuthenticator(String commaSeparatedKeys, boolean keysFile) {
        this(commaSeparatedKeys, keysFile, true);
    }

    private ApiKeyAuthenticator(String commaSeparatedKeys, boolean keysFile, boolean announce) {
        this.keysFile = keysFile;
        this.keys = new KeySet(ApiKeyEntries.parseList(commaSeparatedKeys), List.of());
        if (!announce) {
            return;
        }
        if (keys.size() == 0 && !keysFile) {
            log.warn("no client API keys configured (ZEROLAYER_API_KEYS): serving loopback clients only");
        } else {
            log.info("{} client API key(s) configured{}", keys.size(), keysFile ? ", plus those of the keys file" : "");
        }
    }

    /** Accepts {@code key} alone, without announcing it in the log (an in-process caller's key, as the warm-up's). */
    public static ApiKeyAuthenticator internal(String key) {
        return new ApiKeyAuthenticator(key, false, false);
    }

    public boolean keysConfigured() {
        return keysFile || keys.size() > 0;
    }

    /** How many keys are accepted now (configured plus the keys file's). */
    public int keyCount() {
        return keys.size();
    }

    /** Replaces the keys file's keys as one step (the configured ones stay); returns how many the file now gives. */
    public int replaceFileKeys(List<byte[]> hashes) {
        for (byte[] hash : hashes) {
            if (hash.length != 32) {
                throw new IllegalArgumentException("a key hash has 32 bytes");
            }
        }
        List<byte[]> copies = hashes.stream().map(byte[]::clone).toList();
        synchronized (this) {
            keys = new KeySet(keys.configured(), copies);
        }
        return copies.size();
    }

    /** The caller's key id, or an {@link ApiException} (401 bad or missing key, 403 remote caller without keys). */
    public String authenticate(String apiKeyHeader, String authorization, InetSocketAddress remote) {
        String presented = apiKeyHeader;
        if ((presented == null || presented.isBlank()) && authorization != null
                && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            presented = authorization.substring(7).trim();
        }
        KeySet current = keys;
        if (!keysFile && current.size() == 0) {
            if (!isLoopback(remote)) {
                throw new ApiException(403, "permission_error",
                        "this gateway has no API keys configured and serves local clients only");
            }
            return presented == null || presented.isBlank() ? ANONYMOUS : keyId(presented);
        }
        if (presented == null || presented.isBlank()) {
            throw new ApiException(401, "authentication_error",
                    "missing API key: send x-api-key or Authorization: Bearer");
        }
        byte[] hash = ApiKeyEntries.hash(presented);
        // every held hash is compared, each in constant time: the time taken tells nothing about which one matched
        boolean match = false;
        for (byte[] known : current.configured()) {
            match |= MessageDigest.isEqual(known, hash);
        }
        for (byte[] known : current.fromFile()) {
            match |= MessageDigest.isEqual(known, hash);
        }
        if (!match) {
            throw new ApiException(401, "authentication_error", "invalid x-api-key");
        }
        return keyId(presented);
    }

    /** The id a key is known by in events and limits: {@code key-} and 12 hex characters of its SHA-256. */
    public static String keyId(String key) {
        return "key-" + HexFormat.of().formatHex(SessionKeys.sha256(key.getBytes(StandardCharsets.UTF_8)), 0, 6);
    }

    static boolean isLoopback(InetSocketAddress remote) {
        if (remote == null) {
            return false;
        }
        InetAddress address = remote.getAddress();
        return address != null && address.isLoopbackAddress();
    }
}
