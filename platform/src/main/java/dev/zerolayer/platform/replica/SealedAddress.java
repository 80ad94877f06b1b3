package dev.zerolayer.platform.replica;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A replica's base URL and the time it was sealed, sealed (AES-GCM, under a key derived from a secret its peers share)
 * into a URL-safe token that only those peers can open and nobody can forge; with no shared secret, or one shorter
 * than {@link #MIN_SECRET} characters (tokens reach clients, so they must not make a guessable secret checkable
 * offline), the key is this process's own.
 */
public final class SealedAddress {

    /** The shortest shared secret a key is derived from. */
    public static final int MIN_SECRET = 32;

    private static final String KEY_LABEL = "zerolayer sealed replica address v2";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;
    private final boolean shared;

    /** What a token holds: a replica's address and when it was sealed (whole seconds). */
    public record Sealed(URI address, Instant sealedAt) {
    }

    private SealedAddress(byte[] key, boolean shared) {
        this.key = new SecretKeySpec(key, "AES");
        this.shared = shared;
    }

    /** Whether the key comes from the shared secret (peers can open this replica's tokens). */
    public boolean shared() {
        return shared;
    }

    /**
     * Sealed under a key derived from {@code secret} (HMAC-SHA256); a blank or short secret: a random key of this
     * process ({@link #shared()} false).
     */
    public static SealedAddress fromSecret(String secret) {
        if (secret == null || secret.strip().length() < MIN_SECRET) {
            byte[] own = new byte[32];
            RANDOM.nextBytes(own);
            return new SealedAddress(own, false);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new SealedAddress(mac.doFinal(KEY_LABEL.getBytes(StandardCharsets.UTF_8)), true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** The address, and {@code at} to the second, as a token of base64url characters (a fresh nonce each time). */
    public String seal(URI address, Instant at) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        byte[] uri = address.toString().getBytes(StandardCharsets.UTF_8);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = cipher.doFinal(ByteBuffer.allocate(Long.BYTES + uri.length).putLong(at.getEpochSecond())
                    .put(uri).array());
            return ENCODER.encodeToString(ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** What a token seals, or empty when it is not one sealed under this key (altered, foreign, malformed). */
    public Optional<Sealed> open(String token) {
        byte[] bytes;
        try {
            bytes = DECODER.decode(token);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length <= NONCE + TAG_BITS / 8 + Long.BYTES) {
            return Optional.empty();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE));
            ByteBuffer plain = ByteBuffer.wrap(cipher.doFinal(bytes, NONCE, bytes.length - NONCE));
            Instant at = Instant.ofEpochSecond(plain.getLong());
            byte[] uri = new byte[plain.remaining()];
            plain.get(uri);
            return Optional.of(new Sealed(URI.create(new String(uri, StandardCharsets.UTF_8)), at));
        } catch (GeneralSecurityException | IllegalArgumentException | java.nio.BufferUnderflowException
                | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }
}
