package dev.zerolayer.localstack.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CredentialsTest {

    private final SecureRandom random = new SecureRandom();

    @Test
    void generatesUrlSafePrefixedSecretsWhenTheEnvironmentHasNone() {
        Credentials credentials = Credentials.resolve(Map.of(), random);

        assertThat(credentials.apiKeys()).matches("zl-[A-Za-z0-9_-]{32}");
        assertThat(credentials.adminToken()).matches("zla-[A-Za-z0-9_-]{32}");
        assertThat(credentials.generated()).containsExactly("ZEROLAYER_API_KEYS", "ZEROLAYER_ADMIN_TOKEN");
        assertThat(credentials.generatedNotices()).containsExactly(
                "generated ZEROLAYER_API_KEYS=" + credentials.apiKeys(),
                "generated ZEROLAYER_ADMIN_TOKEN=" + credentials.adminToken());
    }

    @Test
    void everyGenerationIsDifferent() {
        Credentials first = Credentials.resolve(Map.of(), random);
        Credentials second = Credentials.resolve(Map.of(), random);

        assertThat(first.apiKeys()).isNotEqualTo(second.apiKeys());
        assertThat(first.adminToken()).isNotEqualTo(second.adminToken());
    }

    @Test
    void keepsWhatTheEnvironmentSetsAndTreatsBlankAsUnset() {
        Map<String, String> env = new HashMap<>();
        env.put("ZEROLAYER_API_KEYS", "key-a,key-b");
        env.put("ZEROLAYER_ADMIN_TOKEN", "  ");

        Credentials credentials = Credentials.resolve(env, random);

        assertThat(credentials.apiKeys()).isEqualTo("key-a,key-b");
        assertThat(credentials.adminToken()).startsWith("zla-");
        assertThat(credentials.generated()).containsExactly("ZEROLAYER_ADMIN_TOKEN");
        assertThat(credentials.asEnvironment()).containsEntry("ZEROLAYER_API_KEYS", "key-a,key-b")
                .containsEntry("ZEROLAYER_ADMIN_TOKEN", credentials.adminToken());
    }

    @Test
    void neverPrintsItsSecretsByAccident() {
        Credentials credentials = Credentials.resolve(Map.of(), random);

        assertThat(credentials.toString()).doesNotContain(credentials.apiKeys(), credentials.adminToken());
    }
}
