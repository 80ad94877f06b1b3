package dev.zerolayer.routing.tokens;

import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code tokenizer.json} built from a byte-level BPE model's {@code vocab.json} + {@code merges.txt} and its
 * {@code tokenizer_config.json}, with the pre-tokenizer its tokenizer class publishes; a class whose pre-tokenizer is
 * not known here is refused rather than guessed.
 */
final class TokenizerJson {

    /** Qwen2's split (Qwen2, Qwen2.5 and Qwen3 share it), applied before byte-level mapping, with NFC first. */
    static final String QWEN2_SPLIT = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}|"
            + " ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

    private static final Map<String, Family> FAMILIES = Map.of(
            "qwen2tokenizer", Family.QWEN2, "qwen2tokenizerfast", Family.QWEN2,
            "gpt2tokenizer", Family.GPT2, "gpt2tokenizerfast", Family.GPT2);

    private enum Family { QWEN2, GPT2 }

    private TokenizerJson() {
    }

    /**
     * @throws IllegalArgumentException when the config names no tokenizer class whose pre-tokenizer is known, or the
     *                                  files are malformed
     */
    static String fromPair(JsonMapper json, JsonNode config, String vocabJson, String mergesTxt) {
        String tokenizerClass = config.path("tokenizer_class").asString("");
        Family family = FAMILIES.get(tokenizerClass.toLowerCase(Locale.ROOT));
        if (family == null) {
            throw new IllegalArgumentException("no tokenizer.json, and the pre-tokenizer of tokenizer_class '"
                    + tokenizerClass + "' is not known here (vocab.json + merges.txt are read for "
                    + FAMILIES.keySet() + ")");
        }
        JsonNode vocab = json.readTree(vocabJson);
        if (!vocab.isObject() || vocab.isEmpty()) {
            throw new IllegalArgumentException("vocab.json is not an object of token to id");
        }
        ObjectNode root = json.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = addedTokens(json, config);
        root.set("added_tokens", added);
        if (family == Family.QWEN2) {
            root.putObject("normalizer").put("type", "NFC");
            ObjectNode sequence = root.putObject("pre_tokenizer").put("type", "Sequence");
            ArrayNode steps = sequence.putArray("pretokenizers");
            ObjectNode split = steps.addObject().put("type", "Split");
            split.putObject("pattern").put("Regex", QWEN2_SPLIT);
            split.put("behavior", "Isolated").put("invert", false);
            byteLevel(steps.addObject(), config, false);
        } else {
            root.putNull("normalizer");
            byteLevel(root.putObject("pre_tokenizer"), config, true);
        }
        root.putNull("post_processor");
        byteLevel(root.putObject("decoder"), config, true);
        ObjectNode model = root.putObject("model");
        model.put("type", "BPE").putNull("dropout").putNull("unk_token").putNull("continuing_subword_prefix")
                .putNull("end_of_word_suffix").put("fuse_unk", false).put("byte_fallback", false)
                .put("ignore_merges", false);
        ObjectNode withAdded = ((ObjectNode) vocab).deepCopy();
        for (JsonNode token : added) {
            // the library numbers an added token missing from the model's vocabulary after the vocabulary's size, not
            // by its declared id, so a vocabulary with gaps would misnumber it: each is put in with its id
            if (!withAdded.has(token.path("content").asString())) {
                withAdded.put(token.path("content").asString(), token.path("id").asInt());
            }
        }
        model.set("vocab", withAdded);
        ArrayNode merges = model.putArray("merges");
        for (String line : mergesTxt.split("\n")) {
            String merge = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            if (merge.isEmpty() || merge.startsWith("#version")) {
                continue;
            }
            int space = merge.indexOf(' ');
            if (space <= 0 || space == merge.length() - 1 || merge.indexOf(' ', space + 1) >= 0) {
                throw new IllegalArgumentException("merges.txt line is not two tokens: '" + merge + "'");
            }
            merges.add(merge);
        }
        return json.writeValueAsString(root);
    }

    private static void byteLevel(ObjectNode node, JsonNode config, boolean useRegex) {
        node.put("type", "ByteLevel").put("add_prefix_space", config.path("add_prefix_space").asBoolean(false))
                .put("trim_offsets", false).put("use_regex", useRegex);
    }

    /** {@code added_tokens_decoder} (id to token settings) as tokenizer.json's {@code added_tokens} list. */
    private static ArrayNode addedTokens(JsonMapper json, JsonNode config) {
        ArrayNode added = json.createArrayNode();
        JsonNode decoder = config.path("added_tokens_decoder");
        for (Map.Entry<String, JsonNode> entry : decoder.properties()) {
            JsonNode token = entry.getValue();
            String content = token.path("content").asString(null);
            if (content == null) {
                throw new IllegalArgumentException("added token " + entry.getKey() + " has no content");
            }
            added.addObject().put("id", Integer.parseInt(entry.getKey())).put("content", content)
                    .put("single_word", token.path("single_word").asBoolean(false))
                    .put("lstrip", token.path("lstrip").asBoolean(false))
                    .put("rstrip", token.path("rstrip").asBoolean(false))
                    .put("normalized", token.path("normalized").asBoolean(false))
                    .put("special", token.path("special").asBoolean(false));
        }
        return added;
    }
}
