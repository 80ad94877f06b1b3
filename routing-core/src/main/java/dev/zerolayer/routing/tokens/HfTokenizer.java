package dev.zerolayer.routing.tokens;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import dev.zerolayer.contracts.codec.EventCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Hugging Face model's own tokenizer, run by the Rust {@code tokenizers} library (through DJL) that vLLM's tokenizer
 * wraps too: loaded from the model's {@code tokenizer.json}, or built from {@code vocab.json} + {@code merges.txt} for
 * the byte-level BPE classes {@link TokenizerJson} knows; text is encoded as vLLM encodes a rendered chat prompt
 * (special-token text such as {@code <|im_start|>} is that token, nothing is added), and the chat template and special
 * tokens of {@code tokenizer_config.json} come with it.
 */
public final class HfTokenizer implements AutoCloseable {

    private static final Map<String, String> OPTIONS = Map.of("addSpecialTokens", "false", "truncation", "false",
            "padding", "false", "withOverflowingTokens", "false");
    private static final String[] SPECIAL_TOKEN_KEYS = {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
        "cls_token", "mask_token"};

    private final String location;
    private final HuggingFaceTokenizer tokenizer;
    private final String chatTemplate;
    private final Map<String, Object> specialTokens;
    private final long handle;
    private final AddedTokenSplitter splitter;

    private HfTokenizer(String location, HuggingFaceTokenizer tokenizer, String chatTemplate,
            Map<String, Object> specialTokens, List<AddedTokenSplitter.AddedToken> added) {
        this.location = location;
        this.tokenizer = tokenizer;
        this.chatTemplate = chatTemplate;
        this.specialTokens = Map.copyOf(specialTokens);
        this.handle = tokenizer.getHandle();
        this.splitter = AddedTokenSplitter.of(added, this::encodeRun);
    }

    /**
     * Loads a model's tokenizer (seconds for a 150k vocabulary: call it off the request path).
     *
     * @throws IOException              when a file cannot be read
     * @throws IllegalArgumentException when the files are there but do not make a tokenizer
     */
    public static HfTokenizer load(ModelFiles files) throws IOException {
        Objects.requireNonNull(files, "files");
        JsonMapper json = EventCodec.mapper();
        JsonNode config = files.read("tokenizer_config.json").map(text -> tree(json, text, "tokenizer_config.json"))
                .orElse(json.createObjectNode());
        String tokenizerJson = files.read("tokenizer.json").orElse(null);
        if (tokenizerJson == null) {
            String vocab = files.read("vocab.json").orElseThrow(() -> new IllegalArgumentException(
                    files + " has neither tokenizer.json nor vocab.json + merges.txt"));
            String merges = files.read("merges.txt").orElseThrow(() -> new IllegalArgumentException(
                    files + " has vocab.json but no merges.txt"));
            tokenizerJson = TokenizerJson.fromPair(json, config, vocab, merges);
        }
        HuggingFaceTokenizer tokenizer;
        try {
            tokenizer = HuggingFaceTokenizer.newInstance(
                    new ByteArrayInputStream(tokenizerJson.getBytes(StandardCharsets.UTF_8)), OPTIONS);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(files + ": the tokenizers library refused the tokenizer: "
                    + e.getMessage(), e);
        }
        String template = chatTemplate(json, files, config);
        Map<String, Object> special = new LinkedHashMap<>();
        for (String key : SPECIAL_TOKEN_KEYS) {
            String content = tokenText(config.path(key));
            if (content != null && !content.isEmpty()) {
                special.put(key, content);
            }
        }
        java.util.List<String> additional = new java.util.ArrayList<>();
        for (JsonNode token : config.path("additional_special_tokens")) {
            String content = tokenText(token);
            if (content != null) {
                additional.add(content);
            }
        }
        if (!additional.isEmpty()) {
            special.put("additional_special_tokens", java.util.List.copyOf(additional));
        }
        return new HfTokenizer(files.location(), tokenizer, template, special, addedTokens(json, tokenizerJson));
    }

    /** The added tokens of a {@code tokenizer.json}, with whether each is matched exactly as written. */
    private static List<AddedTokenSplitter.AddedToken> addedTokens(JsonMapper json, String tokenizerJson) {
        List<AddedTokenSplitter.AddedToken> added = new ArrayList<>();
        for (JsonNode token : tree(json, tokenizerJson, "tokenizer.json").path("added_tokens")) {
            added.add(new AddedTokenSplitter.AddedToken(token.path("content").asString(""), token.path("id").asInt(),
                    !token.path("normalized").asBoolean(false) && !token.path("lstrip").asBoolean(false)
                            && !token.path("rstrip").asBoolean(false) && !token.path("single_word").asBoolean(false)));
        }
        return added;
    }

    /** The template a chat request is rendered with: the config's (its {@code default} when named), else the files'. */
    private static String chatTemplate(JsonMapper json, ModelFiles files, JsonNode config) throws IOException {
        JsonNode template = config.path("chat_template");
        if (template.isString()) {
            return template.asString();
        }
        if (template.isArray()) {
            for (JsonNode named : template) {
                if ("default".equals(named.path("name").asString(""))) {
                    return named.path("template").asString(null);
                }
            }
        }
        Optional<String> file = files.read("chat_template.jinja");
        if (file.isPresent()) {
            return file.get();
        }
        return files.read("chat_template.json").map(text -> tree(json, text, "chat_template.json"))
                .map(node -> node.path("chat_template").asString(null)).orElse(null);
    }

    /** A special token as the config writes it: its text, or an object with its {@code content}. */
    private static String tokenText(JsonNode value) {
        return value.isString() ? value.asString() : value.path("content").asString(null);
    }

    private static JsonNode tree(JsonMapper json, String text, String name) {
        try {
            return json.readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(name + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Where the files came from. */
    public String location() {
        return location;
    }

    /**
     * The text's token ids; special-token text is that token; no token is added before or after. The text is cut at
     * its added tokens and each longer run of ordinary text is encoded once per process ({@link AddedTokenSplitter}).
     */
    public int[] ids(String text) {
        if (text == null || text.isEmpty()) {
            return new int[0];
        }
        String wellFormed = (TokenCounter.shape(text) & TokenCounter.MALFORMED) != 0
                ? TokenCounter.wellFormed(text) : text;
        return splitter != null ? splitter.encode(wellFormed) : encodeRun(wellFormed);
    }

    /** The ids of a text encoded whole, as the library encodes it (the reference the split encoding must equal). */
    int[] idsUnsplit(String text) {
        return text.isEmpty() ? new int[0] : encodeRun(text);
    }

    /** One encoding through the library's native call, reading back the ids alone. */
    private int[] encodeRun(String text) {
        long encoding = TokenizersLibrary.LIB.encode(handle, text, false);
        try {
            long[] ids = TokenizersLibrary.LIB.getTokenIds(encoding);
            int[] out = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = (int) ids[i];
            }
            return out;
        } finally {
            TokenizersLibrary.LIB.deleteEncoding(encoding);
        }
    }

    /**
     * The text's token ids with the special tokens the tokenizer's post-processor adds (a BOS for Llama-like models,
     * nothing for Qwen), as vLLM encodes a completions prompt.
     */
    public int[] idsWithSpecialTokens(String text) {
        String wellFormed = text == null ? "" : (TokenCounter.shape(text) & TokenCounter.MALFORMED) != 0
                ? TokenCounter.wellFormed(text) : text;
        long[] ids = tokenizer.encode(wellFormed, true, false).getIds();
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = (int) ids[i];
        }
        return out;
    }

    /** The text's token count as {@link #ids} gives it. */
    public int count(String text) {
        return ids(text).length;
    }

    /** The model's chat template (Jinja source), if its files carry one. */
    public Optional<String> chatTemplate() {
        return Optional.ofNullable(chatTemplate);
    }

    /**
     * The special tokens a chat template sees, as transformers' {@code special_tokens_map} gives them: {@code bos_token},
     * {@code eos_token}, {@code unk_token}, {@code sep_token}, {@code pad_token}, {@code cls_token}, {@code mask_token}
     * (texts, only those set) and {@code additional_special_tokens} (a list, when there are any).
     */
    public Map<String, Object> specialTokens() {
        return specialTokens;
    }

    /** Frees the native tokenizer; no call may follow. */
    @Override
    public void close() {
        tokenizer.close();
    }

    @Override
    public String toString() {
        return "HfTokenizer[" + location + "]";
    }
}
