package dev.zerolayer.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.router.api.ApiException;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Keys by x-api-key or Bearer; 401 on a bad or missing key; without keys only loopback callers. */
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
}
