package dev.zerolayer.platform.replica;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A replica's base URL sealed (AES-GCM, under a key derived from a secret its peers share) into a URL-safe token that
 * only those peers can open and nobody can forge; with no shared secret, or one shorter than {@link #MIN_SECRET}
 * characters (tokens reach clients, so they must not make a guessable secret checkable offline), the key is this
 * process's own.
 */
public final class SealedAddress {

    /** The shortest shared secret a key is derived from. */
    public static final int MIN_SECRET = 32;

    private static final String KEY_LABEL = "zerolayer sealed replica address v1";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;
    private final boolean shared;

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

    /** The address as a token of base64url characters (a fresh nonce each time). */
    public String seal(URI address) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = cipher.doFinal(address.toString().getBytes(StandardCharsets.UTF_8));
            return ENCODER.encodeToString(ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** The address a token seals, or empty when it is not one sealed under this key (altered, foreign, malformed). */
    public Optional<URI> open(String token) {
        byte[] bytes;
        try {
            bytes = DECODER.decode(token);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length <= NONCE + TAG_BITS / 8) {
            return Optional.empty();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE));
            byte[] plain = cipher.doFinal(bytes, NONCE, bytes.length - NONCE);
            return Optional.of(URI.create(new String(plain, StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
