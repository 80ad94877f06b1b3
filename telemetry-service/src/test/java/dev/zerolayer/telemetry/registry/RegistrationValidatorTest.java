package dev.zerolayer.telemetry.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tokenizer a registration names is held to the upstream allow-list when it is a URL the router would fetch. */
class RegistrationValidatorTest {

    private final RegistrationValidator validator = new RegistrationValidator(List.of("http", "https"),
            List.of("127.0.0.1", "models.internal"));

    private Optional<String> problem(String tokenizer) {
        NodeRegistration registration = NodeRegistration.of("q-0", "haiku", "c", null, "http://127.0.0.1:8000",
                UpstreamProtocol.OPENAI, "Qwen/Qwen3-0.6B", 8, "1xL4")
                .withPrefixCache(new PrefixCaching(tokenizer, 16, PrefixCaching.VLLM_SHA256_CBOR, "42"));
        return validator.problem(registration, List.of("haiku"), Optional.empty());
    }

    @Test
    void aTokenizerOnAnAllowedHostOrAPathIsAcceptedAndAnyOtherUrlRefused() {
        assertThat(problem("https://models.internal/qwen3/")).isEmpty();
        assertThat(problem("/models/Qwen3-0.6B")).isEmpty();
        assertThat(problem(null)).isEmpty();
        assertThat(problem("https://attacker.example/qwen3/")).get().asString().contains("allow-list");
        assertThat(problem("ftp://models.internal/qwen3/")).get().asString().contains("scheme");
        assertThat(problem("https://user:pw@models.internal/q/")).get().asString().contains("credentials");
    }
}
