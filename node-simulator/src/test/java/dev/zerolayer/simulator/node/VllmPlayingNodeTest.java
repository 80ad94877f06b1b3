package dev.zerolayer.simulator.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.simulator.support.TestNode;
import dev.zerolayer.simulator.telemetry.TelemetryPublisher;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A node playing vLLM tokenizes a chat through its model's chat template and tokenizer, reports those ids as its
 * prompt tokens, publishes KV events with vLLM's sha256_cbor hashes of them, and declares all that in its registration.
 */
class VllmPlayingNodeTest {

    /** Qwen3's tokenizer files trimmed to a few prompts (routing-core's test fixture, in this repository). */
    private static final String QWEN3 = Path.of("../routing-core/src/test/resources/tokenizers/qwen3-trimmed")
            .toAbsolutePath().normalize().toString();
    private static final String CHAT = """
            {"model": "q", "max_tokens": 8, "messages": [{"role": "system", "content": [{"type": "text",
             "text": "You are terse."}, {"type": "text", "text": "Answer in digits."}]}, {"role": "user",
             "content": "2+2?"}, {"role": "assistant", "content": "<think>\\nadd\\n</think>\\n\\n4"},
             {"role": "user", "content": [{"type": "text", "text": "and 3+3?"}]}]}""";

    @Test
    void aChatIsTokenizedAndHashedAsVllmWouldAndTheRegistrationSaysSo() throws Exception {
        ServedModel qwen = ServedModel.load(QWEN3);
        PrefixCaching caching = new PrefixCaching(QWEN3, 16, PrefixCaching.VLLM_SHA256_CBOR, "42");
        try (TestNode node = TestNode.builder().vllm(qwen, caching).start()) {
            HttpResponse<String> response = node.post("/v1/chat/completions", CHAT);

            assertThat(response.statusCode()).isEqualTo(200);
            int[] ids = qwen.chat(EventCodec.mapper().readTree(CHAT)).ids();
            JsonNode usage = EventCodec.mapper().readTree(response.body()).path("usage");
            assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(ids.length);
            List<Long> stored = new ArrayList<>();
            for (KvCacheEvent event : node.kvEvents) {
                if (event.type() == KvEventType.BLOCK_STORED) {
                    stored.addAll(event.blockHashes());
                }
            }
            long[] vllm = new VllmBlockHasher(16, "42", null).hashChain(ids);
            assertThat(vllm).isNotEmpty();
            assertThat(stored).containsExactlyElementsOf(java.util.Arrays.stream(vllm).boxed().toList());
            NodeRegistration registration = TelemetryPublisher.registration(node.node());
            assertThat(registration.prefixCache()).isEqualTo(caching);
        }
    }
}
