package dev.zerolayer.router.auth;

import dev.zerolayer.router.api.ApiException;
import dev.zerolayer.router.state.SessionKeys;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client authentication: with keys configured, {@code x-api-key} or {@code Authorization: Bearer} must match one (only
 * SHA-256 hashes are held, compared in constant time) or the request gets 401; with none configured, only loopback
 * clients are served. The key's id is a hash prefix, never the key.
 */
public class ApiKeyAuthenticator {

    public static final String ANONYMOUS = "anonymous";
    private static final Logger log = LoggerFactory.getLogger(ApiKeyAuthenticator.class);

    private final List<byte[]> hashes = new ArrayList<>();

    public ApiKeyAuthenticator(String commaSeparatedKeys) {
        if (commaSeparatedKeys != null) {
            for (String key : commaSeparatedKeys.split(",")) {
                if (!key.isBlank()) {
                    hashes.add(SessionKeys.sha256(key.trim().getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        if (hashes.isEmpty()) {
            log.warn("no client API keys configured (ZEROLAYER_API_KEYS): serving loopback clients only");
        } else {
            log.info("{} client API key(s) configured", hashes.size());
        }
    }

    public boolean keysConfigured() {
        return !hashes.isEmpty();
    }

    /** The caller's key id, or an {@link ApiException} (401 bad or missing key, 403 remote caller without keys). */
    public String authenticate(String apiKeyHeader, String authorization, InetSocketAddress remote) {
        String presented = apiKeyHeader;
        if ((presented == null || presented.isBlank()) && authorization != null
                && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            presented = authorization.substring(7).trim();
        }
        if (hashes.isEmpty()) {
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
        byte[] hash = SessionKeys.sha256(presented.getBytes(StandardCharsets.UTF_8));
        boolean match = false;
        for (byte[] known : hashes) {
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
