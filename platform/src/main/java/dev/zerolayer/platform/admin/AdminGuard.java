package dev.zerolayer.platform.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Mutating admin endpoints demand {@code Authorization: Bearer <zerolayer.admin-token>}, compared in constant time over
 * SHA-256 digests; when no token is configured every admin call is refused.
 */
public final class AdminGuard {

    private static final String BEARER = "Bearer ";

    private final byte[] tokenDigest;

    public AdminGuard(String token) {
        this.tokenDigest = token == null || token.isBlank() ? null : sha256(token.strip());
    }

    /** True when a token is configured, so admin endpoints can be used at all. */
    public boolean enabled() {
        return tokenDigest != null;
    }

    /**
     * Checks the {@code Authorization} header value.
     *
     * @return who made the call, for audit records: a fingerprint of the token, never the token itself
     * @throws AdminDeniedException 401 when the header is missing or not a bearer token, 403 when the token is wrong or
     *                              no admin token is configured
     */
    public AdminPrincipal require(String authorization) {
        if (tokenDigest == null) {
            throw new AdminDeniedException(403, "admin endpoints are disabled: no admin token is configured (ZEROLAYER_ADMIN_TOKEN)");
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new AdminDeniedException(401, "admin token required: send 'Authorization: Bearer <token>'");
        }
        byte[] presented = sha256(authorization.substring(BEARER.length()).strip());
        if (!MessageDigest.isEqual(presented, tokenDigest)) {
            throw new AdminDeniedException(403, "admin token is not valid");
        }
        return new AdminPrincipal("admin:" + HexFormat.of().formatHex(presented, 0, 4));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }

    /** The caller of an admin endpoint as recorded in audits: a short token fingerprint. */
    public record AdminPrincipal(String id) {
    }
}
