package dev.zerolayer.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.router.wire.ApiException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keys by x-api-key or Bearer; 401 on a bad or missing key; without keys only loopback callers; keys configured as
 * {@code sha256:} hashes; bad entries refused by position; the keys file's keys swapped as a whole.
 */
class ApiKeyAuthenticatorTest {

    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 5000);
    private static final InetSocketAddress REMOTE = new InetSocketAddress("192.0.2.7", 5000);

    @Test
    void acceptsConfiguredKeysEitherWayAndIdentifiesThemByHash() {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("k-one, k-two");
        assertThat(auth.authenticate("k-one", null, REMOTE)).isEqualTo(ApiKeyAuthenticator.keyId("k-one"))
                .startsWith("key-").doesNotContain("one");
        assertThat(auth.authenticate(null, "Bearer k-two", REMOTE)).isEqualTo(ApiKeyAuthenticator.keyId("k-two"));
    }

    @Test
    void rejectsBadAndMissingKeysWith401() {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("k-one");
        assertThatThrownBy(() -> auth.authenticate("nope", null, LOCAL)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> auth.authenticate(null, null, LOCAL)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.type()).isEqualTo("authentication_error"));
    }

    @Test
    void withoutKeysServesLoopbackOnly() {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("");
        assertThat(auth.authenticate(null, null, LOCAL)).isEqualTo(ApiKeyAuthenticator.ANONYMOUS);
        assertThatThrownBy(() -> auth.authenticate(null, null, REMOTE)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(403));
    }

    @Test
    void acceptsKeysConfiguredOnlyAsTheirHashes() {
        String entry = ApiKeyEntries.hashedEntry("k-secret");
        assertThat(entry).matches("sha256:[0-9a-f]{64}").doesNotContain("secret");
        // the hash printf %s k-secret | sha256sum prints, in either case
        assertThat(entry).isEqualTo("sha256:" + java.util.HexFormat.of().formatHex(
                dev.zerolayer.router.state.SessionKeys.sha256("k-secret".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator(entry.toUpperCase().replace("SHA256:", "sha256:")
                + ", k-plain");
        assertThat(auth.keyCount()).isEqualTo(2);
        assertThat(auth.authenticate("k-secret", null, REMOTE)).isEqualTo(ApiKeyAuthenticator.keyId("k-secret"));
        assertThat(auth.authenticate(null, "Bearer k-plain", REMOTE)).isEqualTo(ApiKeyAuthenticator.keyId("k-plain"));
        // the hash itself is not a key
        assertThatThrownBy(() -> auth.authenticate(entry, null, REMOTE)).isInstanceOf(ApiException.class);
    }

    @Test
    void refusesBadEntriesNamingTheirPositionNotTheirContent() {
        assertThatThrownBy(() -> new ApiKeyAuthenticator("k-good, sha256:abc123-secret"))
                .isInstanceOfSatisfying(ApiKeyEntries.InvalidEntryException.class, e -> {
                    assertThat(e.position()).isEqualTo(2);
                    assertThat(e.getMessage()).contains("entry 2").doesNotContain("abc123").doesNotContain("secret");
                });
        assertThatThrownBy(() -> ApiKeyEntries.parseLines(List.of("# keys", "", "k-one", "bad key secret")))
                .isInstanceOfSatisfying(ApiKeyEntries.InvalidEntryException.class, e -> {
                    assertThat(e.position()).isEqualTo(4);
                    assertThat(e.getMessage()).startsWith("line 4:").doesNotContain("secret");
                });
        assertThatThrownBy(() -> ApiKeyEntries.parseLines(List.of("sha256:" + "g".repeat(64))))
                .isInstanceOf(ApiKeyEntries.InvalidEntryException.class);
        assertThatThrownBy(() -> ApiKeyEntries.parseLines(List.of("sha256:" + "a".repeat(63))))
                .isInstanceOf(ApiKeyEntries.InvalidEntryException.class);
        assertThatThrownBy(() -> ApiKeyEntries.parseLines(List.of("k\u00e9y")))
                .isInstanceOf(ApiKeyEntries.InvalidEntryException.class);
        // comments, blank lines and surrounding blanks are not entries
        assertThat(ApiKeyEntries.parseLines(List.of("  # a comment", "   ", "\tk-one  ", "#k-two"))).hasSize(1);
    }

    @Test
    void theKeysFilesKeysAreReplacedAsAWholeAndTheConfiguredOnesStay() {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("k-fixed", true);
        auth.replaceFileKeys(List.of(ApiKeyEntries.hash("k-a")));
        assertThat(auth.authenticate("k-a", null, REMOTE)).isNotNull();
        assertThat(auth.keyCount()).isEqualTo(2);

        auth.replaceFileKeys(List.of(ApiKeyEntries.hash("k-b"), ApiKeyEntries.hash("k-c")));
        assertThatThrownBy(() -> auth.authenticate("k-a", null, REMOTE)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(401));
        assertThat(auth.authenticate("k-b", null, REMOTE)).isEqualTo(ApiKeyAuthenticator.keyId("k-b"));
        assertThat(auth.authenticate("k-c", null, REMOTE)).isNotNull();
        assertThat(auth.authenticate("k-fixed", null, REMOTE)).isNotNull();
        assertThat(auth.keyCount()).isEqualTo(3);
    }

    @Test
    void withAKeysFileAKeyIsDemandedEvenWhenNoneIsLeft() {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("", true);
        auth.replaceFileKeys(List.of());
        assertThat(auth.keysConfigured()).isTrue();
        // an emptied keys file revokes every key; it does not open the gateway to local callers
        assertThatThrownBy(() -> auth.authenticate(null, null, LOCAL)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> auth.authenticate("anything", null, LOCAL)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(401));
    }
}
