package dev.zerolayer.router.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.SentPrefixes;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.ServedModels;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.JsonNode;

/**
 * A node that declares its engine's prefix caching is credited with the blocks of the chain its own model's tokenizer
 * and chat template give, and with nothing when that chain cannot be computed exactly; other nodes keep the default
 * chain.
 */
class PromptPrefixesTest {

    /** Qwen3's tokenizer files, trimmed to a few prompts (routing-core's test fixture, in this repository). */
    private static final String QWEN3 = Path.of("../routing-core/src/test/resources/tokenizers/qwen3-trimmed")
            .toAbsolutePath().normalize().toString();
    private static final JsonNode CHAT = EventCodec.mapper().readTree("""
            {"model": "q", "messages": [{"role": "system", "content": [{"type": "text", "text": "You are terse."},
             {"type": "text", "text": "Answer in digits."}]}, {"role": "user", "content": "2+2?"},
             {"role": "assistant", "content": "<think>\\nadd\\n</think>\\n\\n4"},
             {"role": "user", "content": [{"type": "text", "text": "and 3+3?"}]}]}""");

    private final Clock clock = Clock.systemUTC();
    private CompactedView<KvIndexEntry> index;
    private ServedModels<ServedModel> models;

    @BeforeEach
    void setUp() {
        index = new CompactedView<>(Topics.CACHE_KV_INDEX_TOPIC, new EventReader(new SimpleMeterRegistry()), clock);
        models = new ServedModels<>(ServedModel::load, Runnable::run, clock::millis, 60_000);
    }

    private static NodeRegistration node(String id, PrefixCaching caching) {
        return NodeRegistration.of(id, "haiku", "c", null, "http://127.0.0.1:1", UpstreamProtocol.OPENAI,
                "Qwen/Qwen3-0.6B", 8, "test").withPrefixCache(caching);
    }

    private void hold(long[] chain, int blocks, String... nodes) {
        for (int i = 0; i < blocks; i++) {
            KvIndexEntry entry = new KvIndexEntry("e" + i + nodes[0], Instant.now(), KvIndexEntry.SCHEMA_VERSION,
                    chain[i], i == 0 ? null : chain[i - 1], List.of(nodes));
            index.accept(MessageBuilder.withPayload(EventCodec.encode(entry))
                    .setHeader(KafkaHeaders.RECEIVED_KEY, entry.key().getBytes(StandardCharsets.UTF_8)).build());
        }
    }

    @Test
    void aDeclaringNodeIsCreditedWithTheBlocksOfItsOwnEnginesChainOnly() {
        PrefixCaching vllm = new PrefixCaching(QWEN3, 16, PrefixCaching.VLLM_SHA256_CBOR, "42");
        assertThat(models.ready(QWEN3)).isEmpty();
        ServedModel qwen = models.ready(QWEN3).orElseThrow();
        int[] ids = qwen.chat(CHAT).ids();
        long[] engineChain = new VllmBlockHasher(16, "42", null).hashChain(ids);
        assertThat(engineChain).hasSizeGreaterThanOrEqualTo(2);
        // both engine nodes' chains are in the index as the bridge publishes them; the simulated node holds them too
        hold(engineChain, 2, "vllm-a", "sim");
        int[] defaultIds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
        PromptPrefixes prefixes = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, models, null);

        PromptPrefixes.Lookup lookup = prefixes.lookup(defaultIds, List.of(node("vllm-a", vllm), node("vllm-b", vllm),
                node("sim", null)), "q", model -> model.chat(CHAT));

        assertThat(lookup.leadingBlocksHeld()).containsEntry("vllm-a", 2).doesNotContainKeys("vllm-b", "sim");
        assertThat(lookup.chainOf("vllm-a")).containsExactly(engineChain);
        assertThat(lookup.chainOf("sim")).containsExactly(new FastBlockHasher(16, 0).hashChain(defaultIds));
        assertThat(lookup.engineTokens()).containsEntry("vllm-a", ids.length).containsEntry("vllm-b", ids.length)
                .doesNotContainKey("sim");
        assertThat(lookup.inexact()).isEmpty();
    }

    @Test
    void aLoraAdapterTheRequestNamesChangesTheChainOfTheNodesHoldingIt() {
        PrefixCaching vllm = new PrefixCaching(QWEN3, 16, PrefixCaching.VLLM_SHA256_CBOR, "42");
        models.ready(QWEN3);
        ServedModel qwen = models.ready(QWEN3).orElseThrow();
        NodeRegistration alice = new NodeRegistration("e", Instant.now(), 1, "lora", "haiku", "c", null,
                "http://127.0.0.1:1", UpstreamProtocol.OPENAI, "Qwen/Qwen3-0.6B", 8, "t", null, List.of("Alice"), null,
                vllm);
        PromptPrefixes prefixes = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, models, null);

        PromptPrefixes.Lookup lookup = prefixes.lookup(new int[0], List.of(alice, node("base", vllm)), "Alice",
                model -> model.chat(CHAT));

        int[] ids = qwen.chat(CHAT).ids();
        assertThat(lookup.chainOf("lora")).containsExactly(new VllmBlockHasher(16, "42", List.of("Alice"))
                .hashChain(ids));
        assertThat(lookup.chainOf("base")).containsExactly(new VllmBlockHasher(16, "42", null).hashChain(ids));
    }

    @Test
    void aNodeWhoseChainCannotBeComputedExactlyIsCreditedWithNoEngineBlockAndTheLookupSaysWhy() {
        ServedModels<ServedModel> neverLoaded = new ServedModels<>(ServedModel::load, task -> { }, clock::millis,
                60_000);
        PromptPrefixes prefixes = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, neverLoaded,
                null);
        NodeRegistration loading = node("loading", new PrefixCaching(QWEN3, 16, PrefixCaching.VLLM_SHA256_CBOR, "42"));
        NodeRegistration unseeded = node("unseeded", new PrefixCaching(null, 16, PrefixCaching.VLLM_SHA256_CBOR, null));
        NodeRegistration missing = node("missing", new PrefixCaching("/nowhere/at/all", 16,
                PrefixCaching.VLLM_SHA256_CBOR, "1"));
        ServedModels<ServedModel> failing = new ServedModels<>(ServedModel::load, Runnable::run, clock::millis, 60_000);
        PromptPrefixes failingPrefixes = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, failing, null);
        failing.ready("/nowhere/at/all");

        PromptPrefixes.Lookup lookup = prefixes.lookup(new int[32], List.of(loading, unseeded), null,
                model -> { throw new AssertionError("no model is ready"); });
        PromptPrefixes.Lookup failed = failingPrefixes.lookup(new int[32], List.of(missing), null,
                model -> { throw new AssertionError("no model is ready"); });

        assertThat(lookup.inexact()).containsEntry("loading", "tokenizer still loading");
        assertThat(lookup.inexact().get("unseeded")).contains("PYTHONHASHSEED");
        assertThat(lookup.chainOf("loading")).as("the default chain, for approximate matching")
                .containsExactly(lookup.chain());
        assertThat(lookup.leadingBlocksHeld()).isEmpty();
        assertThat(failed.inexact().get("missing")).startsWith("tokenizer failed to load");
    }

    @Test
    void aNodeWhoseChainCannotBeComputedIsMatchedApproximatelyOnWhatThisRouterSentIt() {
        // Given a vLLM node whose tokenizer never loads, and a history of what was sent where
        ServedModels<ServedModel> neverLoaded = new ServedModels<>(ServedModel::load, task -> { }, clock::millis,
                60_000);
        SentPrefixes sent = new SentPrefixes(600_000, 1024, 10_000, clock::millis);
        PromptPrefixes prefixes = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, neverLoaded, sent);
        PrefixCaching vllm = new PrefixCaching(QWEN3, 16, PrefixCaching.VLLM_SHA256_CBOR, "42");
        List<NodeRegistration> fleet = List.of(node("vllm-a", vllm), node("vllm-b", vllm));
        int[] firstTurn = new int[40];
        java.util.Arrays.setAll(firstTurn, i -> i + 7);
        int[] nextTurn = java.util.Arrays.copyOf(firstTurn, 70);
        PromptPrefixes.PromptSource none = model -> { throw new AssertionError("no model is ready"); };
        // and the engine's own index holding the default chain's hashes for vllm-b (never to be read for it)
        hold(new FastBlockHasher(16, 0).hashChain(nextTurn), 2, "vllm-b");

        // When vllm-a served the first turn
        PromptPrefixes.Lookup first = prefixes.lookup(firstTurn, fleet, null, none);
        assertThat(first.leadingBlocksHeld()).isEmpty();
        prefixes.served("vllm-a", first);
        PromptPrefixes.Lookup next = prefixes.lookup(nextTurn, fleet, null, none);

        // Then the next turn credits vllm-a with the two whole blocks it was sent, and vllm-b with nothing
        assertThat(next.leadingBlocksHeld()).containsOnly(java.util.Map.entry("vllm-a", 2));
        assertThat(next.inexact()).containsKeys("vllm-a", "vllm-b");
        // and a node matched exactly is never remembered approximately
        PromptPrefixes.Lookup exact = new PromptPrefixes(index, new FastBlockHasher(16, 0), 1024, true, neverLoaded,
                sent).lookup(nextTurn);
        prefixes.served("sim", exact);
        assertThat(sent.leadingBlocks("sim", exact.chain())).isZero();
    }
}
