package dev.zerolayer.contracts.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A node's prefix-caching declaration travels on its registration and is refused when the router could not use it. */
class PrefixCachingTest {

    @Test
    void aRegistrationCarriesItsPrefixCachingThroughTheCodec() {
        PrefixCaching vllm = new PrefixCaching("https://models.example/qwen3/", 16, PrefixCaching.VLLM_SHA256_CBOR,
                "42");
        NodeRegistration registration = NodeRegistration.of("q-1", "haiku", "c", null, "http://127.0.0.1:8000",
                UpstreamProtocol.OPENAI, "Qwen/Qwen3-0.6B", 8, "1xL4").withPrefixCache(vllm);

        NodeRegistration decoded = EventCodec.decode(EventCodec.encode(registration), NodeRegistration.class);

        assertThat(decoded.prefixCache()).isEqualTo(vllm);
        assertThat(decoded).isEqualTo(registration);
        assertThat(new String(EventCodec.encode(registration), StandardCharsets.UTF_8))
                .contains("\"hashAlgorithm\":\"sha256_cbor\"");
    }

    @Test
    void anUnknownHashABadBlockSizeOrANonNumericFastSeedIsRefused() {
        assertThatThrownBy(() -> new PrefixCaching(null, 16, "xxhash", "1"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("hashAlgorithm");
        assertThatThrownBy(() -> new PrefixCaching(null, 0, PrefixCaching.VLLM_SHA256_CBOR, "1"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("blockSize");
        assertThatThrownBy(() -> new PrefixCaching(null, 16, PrefixCaching.ZEROLAYER_FAST, "forty-two"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("long");
        assertThatThrownBy(() -> new PrefixCaching(" ", 16, PrefixCaching.ZEROLAYER_FAST, "1"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("tokenizer");
    }

    @Test
    void aVllmHashWithoutASeedIsNotReproducible() {
        assertThat(new PrefixCaching(null, 16, PrefixCaching.VLLM_SHA256_CBOR, null).reproducible()).isFalse();
        assertThat(new PrefixCaching(null, 16, PrefixCaching.VLLM_SHA256_CBOR, "0").reproducible()).isTrue();
        assertThat(new PrefixCaching(null, 16, PrefixCaching.ZEROLAYER_FAST, null).reproducible()).isTrue();
    }
}
