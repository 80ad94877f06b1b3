package dev.zerolayer.fallback.policy;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a policy document's text into a JSON tree: duplicate keys and trailing content are errors, and an unreadable
 * document is refused with its line and column, never with its content.
 */
public final class PolicyParser {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    public JsonNode parse(String text, PolicyFormat format) {
        if (text == null || text.isBlank()) {
            throw new PolicyRejectedException(new PolicyViolation("", "the policy document is empty"));
        }
        ObjectMapper mapper = format == PolicyFormat.YAML ? YAML : JSON;
        try {
            JsonNode tree = mapper.readTree(text);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw new PolicyRejectedException(new PolicyViolation("", "the policy document is empty"));
            }
            return tree;
        } catch (JacksonException e) {
            throw new PolicyRejectedException(new PolicyViolation("", "invalid " + format + where(e) + ": "
                    + problem(e)));
        }
    }

    private static String where(JacksonException e) {
        TokenStreamLocation location = e.getLocation();
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /** The parser's own first line of explanation, without the excerpt of the document it may append. */
    private static String problem(JacksonException e) {
        String message = e.getOriginalMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        String line = message.strip().split("\\R", 2)[0];
        int excerpt = line.indexOf(" in 'reader'");
        if (excerpt > 0) {
            line = line.substring(0, excerpt);
        }
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}
