package dev.zerolayer.routing.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The model's own tokenizer gives vLLM's token ids and block hashes for a prompt captured from vLLM serving
 * Qwen/Qwen3-0.6B, and llama.cpp's expected Qwen2 ids for 46 hard strings; from the trimmed fixture always, and from
 * the whole Qwen3 files when {@code ../shared/data/tokenizers/qwen3} is there.
 */
class HfTokenizerTest {

    private static final Path SHARED_QWEN3 = Path.of("../../shared/data/tokenizers/qwen3");

    private static HfTokenizer trimmed;
    private static JsonNode captured;
    private static JsonNode llamaCpp;

    @BeforeAll
    static void load() throws Exception {
        trimmed = HfTokenizer.load(ModelFiles.at(resource("tokenizers/qwen3-trimmed").toString()));
        captured = EventCodec.mapper().readTree(Files.readString(resource("tokenizers/qwen3-kv-event.json")));
        llamaCpp = EventCodec.mapper().readTree(Files.readString(resource("tokenizers/llamacpp-qwen2.json")));
    }

    @AfterAll
    static void close() {
        trimmed.close();
    }

    @Test
    void theCapturedPromptGivesTheTokenIdsVllmReported() {
        int[] ids = trimmed.ids(captured.path("prompt").asString());

        int[] vllm = ints(captured.path("token_ids"));
        assertThat(ids).hasSize(402);
        assertThat(Arrays.copyOf(ids, vllm.length)).containsExactly(vllm);
    }

    @Test
    void thoseIdsGiveTheBlockHashesVllmPublishedWithAndWithoutTheLoraKey() {
        int[] ids = trimmed.ids(captured.path("prompt").asString());
        String seed = captured.path("hash_seed").asString();
        int blockSize = captured.path("block_size").asInt();

        long[] base = new VllmBlockHasher(blockSize, seed, null).hashChain(ids);
        long[] lora = new VllmBlockHasher(blockSize, seed, List.of(captured.path("lora_name").asString()))
                .hashChain(ids);

        List<String> published = strings(captured.path("block_hashes"));
        assertThat(base).hasSize(25);
        assertThat(Arrays.stream(base).mapToObj(Long::toUnsignedString).toList()).isEqualTo(published);
        assertThat(Arrays.stream(lora).mapToObj(Long::toUnsignedString).toList())
                .isEqualTo(strings(captured.path("lora_block_hashes")));
    }

    @Test
    void llamaCppsQwen2StringsGiveTheirExpectedIds() {
        assertAllLlamaCppCases(trimmed);
    }

    @Test
    void specialTokenTextIsThatTokenAndNothingIsAdded() {
        assertThat(trimmed.ids("<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\n"))
                .containsExactly(151644, 872, 198, 9707, 1052, 151645, 198, 151644, 77091, 198);
        assertThat(trimmed.ids("")).isEmpty();
        assertThat(trimmed.specialTokens()).containsEntry("eos_token", "<|im_end|>")
                .containsEntry("pad_token", "<|endoftext|>").doesNotContainKey("bos_token");
        assertThat(trimmed.chatTemplate()).get().asString().contains("<|im_start|>");
    }

    @Test
    void cuttingAtAddedTokensAndReusingEncodedRunsGivesTheIdsOfTheWholeText() throws Exception {
        JsonNode rendered = EventCodec.mapper().readTree(Files.readString(
                resource("tokenizers/served/expected.json")));
        List<String> texts = new ArrayList<>();
        rendered.forEach(prompt -> texts.add(prompt.asString()));
        texts.add(captured.path("prompt").asString());
        texts.add("<|im_start|><|im_end|>" + captured.path("prompt").asString() + "<think></think><|im_start|>");
        llamaCpp.path("cases").forEach(item -> texts.add(item.path("text").asString()));
        for (String text : texts) {
            int[] whole = trimmed.idsUnsplit(text);
            assertThat(trimmed.ids(text)).as(text).containsExactly(whole);
            assertThat(trimmed.ids(text)).as("again, from the kept runs: " + text).containsExactly(whole);
        }
    }

    @Test
    void theWholeQwen3FilesAgreeWhenThisCheckoutSitsBesideTheSharedData() throws IOException {
        assumeTrue(Files.isDirectory(SHARED_QWEN3), "no " + SHARED_QWEN3.toAbsolutePath().normalize()
                + ": only the trimmed fixture was checked");
        try (HfTokenizer whole = HfTokenizer.load(ModelFiles.at(SHARED_QWEN3.toString()))) {
            String prompt = captured.path("prompt").asString();
            assertThat(whole.ids(prompt)).containsExactly(trimmed.ids(prompt));
            assertAllLlamaCppCases(whole);
        }
    }

    @Test
    void filesThatMakeNoTokenizerAreRefusedWithTheReason(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> HfTokenizer.load(ModelFiles.at(dir.toString())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither tokenizer.json");

        Files.writeString(dir.resolve("vocab.json"), "{\"a\": 0}");
        Files.writeString(dir.resolve("merges.txt"), "#version: 0.2\n");
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"tokenizer_class\": \"LlamaTokenizer\"}");
        assertThatThrownBy(() -> HfTokenizer.load(ModelFiles.at(dir.toString())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LlamaTokenizer");

        Files.writeString(dir.resolve("tokenizer.json"), "{\"model\": 7}");
        assertThatThrownBy(() -> HfTokenizer.load(ModelFiles.at(dir.toString())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused");
    }

    private static void assertAllLlamaCppCases(HfTokenizer tokenizer) {
        List<String> wrong = new ArrayList<>();
        int cases = 0;
        for (JsonNode item : llamaCpp.path("cases")) {
            cases++;
            int[] expected = ints(item.path("ids"));
            int[] actual = tokenizer.ids(item.path("text").asString());
            if (!Arrays.equals(expected, actual)) {
                wrong.add(item.path("text").asString() + " -> " + Arrays.toString(actual));
            }
        }
        assertThat(cases).isEqualTo(46);
        assertThat(wrong).isEmpty();
    }

    private static int[] ints(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asInt();
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asString()));
        return out;
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(HfTokenizerTest.class.getClassLoader().getResource(name).toURI());
    }
}
