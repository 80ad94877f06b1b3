package dev.zerolayer.router.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Session hashes are stable SHA-256 prefixes that never contain the raw id, with header > user id > key+address. */
class SessionKeysTest {

    @Test
    void hashesTheSessionHeaderFirstThenUserIdThenKeyAndAddress() {
        String header = SessionKeys.sessionHash("sess-secret-42", "user-1", "key-a", "127.0.0.1");
        assertThat(header).hasSize(32).matches("[0-9a-f]+").doesNotContain("secret")
                .isEqualTo(SessionKeys.sessionHash("sess-secret-42", "other", "key-b", "10.0.0.1"));
        String user = SessionKeys.sessionHash(null, "user-1", "key-a", "127.0.0.1");
        assertThat(user).isNotEqualTo(header).isEqualTo(SessionKeys.sessionHash(" ", "user-1", "key-b", "x"));
        assertThat(SessionKeys.sessionHash(null, null, "key-a", "127.0.0.1"))
                .isNotEqualTo(SessionKeys.sessionHash(null, null, "key-a", "127.0.0.2"));
    }
}
