package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A node gets the credential its registration names, from the router's configuration; a missing one fails its attempt. */
class NodeCredentialsTest {

    @Test
    void aNamedCredentialIsAHeaderLineAndAMissingOneFailsTheAttempt() {
        NodeCredentials credentials = new NodeCredentials(Map.of("vllm-a", "Authorization: Bearer abc:def"));
        assertThat(credentials.header("vllm-a")).isEqualTo(Map.entry("Authorization", "Bearer abc:def"));
        assertThat(credentials.header(null)).isNull();
        assertThatThrownBy(() -> credentials.header("other")).isInstanceOfSatisfying(UpstreamFailure.class,
                f -> assertThat(f.bypassable()).isTrue());
        assertThatThrownBy(() -> new NodeCredentials(Map.of("bad", "no header here")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Name: value'");
    }
}
