package dev.zerolayer.router.state;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Session identity as events and logs may carry it: the first 16 bytes of SHA-256, hex; the raw id never leaves the request. */
public final class SessionKeys {

    private SessionKeys() {
    }

    /** Hash of the session: {@code x-session-id}, else the body's user id, else API key id + client address. */
    public static String sessionHash(String sessionHeader, String userId, String apiKeyId, String clientAddress) {
        String identity;
        if (sessionHeader != null && !sessionHeader.isBlank()) {
            identity = "session:" + sessionHeader;
        } else if (userId != null && !userId.isBlank()) {
            identity = "user:" + userId;
        } else {
            identity = "client:" + apiKeyId + "@" + clientAddress;
        }
        return hash(identity);
    }

    /** SHA-256 prefix (32 hex characters) of a text. */
    public static String hash(String text) {
        return HexFormat.of().formatHex(sha256(text.getBytes(StandardCharsets.UTF_8)), 0, 16);
    }

    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
