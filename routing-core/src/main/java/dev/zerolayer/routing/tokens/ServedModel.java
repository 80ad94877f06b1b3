package dev.zerolayer.routing.tokens;

import dev.zerolayer.routing.tokens.template.ChatTemplate;
import dev.zerolayer.routing.tokens.template.TemplateException;
import java.io.IOException;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A served model's prompts as its engine tokenizes them: an OpenAI chat body is prepared as vLLM prepares it
 * ({@link VllmChatInput}), rendered through the model's chat template and tokenized with the model's tokenizer; a
 * completions prompt is tokenized as sent. A template this router cannot render is named once, at load, and its chats
 * are answered with that problem rather than with ids that would never match.
 */
public final class ServedModel implements AutoCloseable {

    private final HfTokenizer tokenizer;
    private final ChatTemplate template;
    private final String templateProblem;
    private final boolean contentParts;

    ServedModel(HfTokenizer tokenizer, ChatTemplate template, String templateProblem, boolean contentParts) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.template = template;
        this.templateProblem = templateProblem;
        this.contentParts = contentParts;
    }

    /**
     * Loads the tokenizer and parses its chat template (seconds: off the request path).
     *
     * @throws IOException              when a file cannot be read
     * @throws IllegalArgumentException when the files do not make a tokenizer
     */
    public static ServedModel load(String location) throws IOException {
        HfTokenizer tokenizer = HfTokenizer.load(ModelFiles.at(location));
        String source = tokenizer.chatTemplate().orElse(null);
        if (source == null) {
            return new ServedModel(tokenizer, null, "the model's files carry no chat template", false);
        }
        try {
            return new ServedModel(tokenizer, ChatTemplate.parse(source), null,
                    VllmChatInput.takesContentParts(source));
        } catch (TemplateException e) {
            return new ServedModel(tokenizer, null, "chat template not renderable here: " + e.getMessage(), false);
        }
    }

    /** A prompt's token ids, or why they cannot be computed exactly (then the ids are empty). */
    public record Prompt(int[] ids, String problem) {

        static Prompt of(int[] ids) {
            return new Prompt(ids, null);
        }

        static Prompt inexact(String problem) {
            return new Prompt(new int[0], problem);
        }
    }

    public HfTokenizer tokenizer() {
        return tokenizer;
    }

    /** Frees the tokenizer's native memory; only once no request can still use this model. */
    @Override
    public void close() {
        tokenizer.close();
    }

    /** Why chats cannot be rendered for this model (null: they can). */
    public String templateProblem() {
        return templateProblem;
    }

    /** The ids an OpenAI-compatible vLLM node feeds its model for this {@code /v1/chat/completions} body. */
    public Prompt chat(JsonNode body) {
        if (template == null) {
            return Prompt.inexact(templateProblem);
        }
        VllmChatInput.Prepared prepared = VllmChatInput.prepare(body, tokenizer.specialTokens(), contentParts);
        if (prepared.problem() != null) {
            return Prompt.inexact(prepared.problem());
        }
        Object rendered = rendered(prepared);
        if (rendered instanceof Prompt problem) {
            return problem;
        }
        return Prompt.of(prepared.addSpecialTokens() ? tokenizer.idsWithSpecialTokens((String) rendered)
                : tokenizer.ids((String) rendered));
    }

    /** The prompt text vLLM renders for a chat body (null when it cannot be rendered exactly). */
    String render(JsonNode body) {
        VllmChatInput.Prepared prepared = VllmChatInput.prepare(body, tokenizer.specialTokens(), contentParts);
        return template == null || prepared.problem() != null || !(rendered(prepared) instanceof String text) ? null
                : text;
    }

    /** The rendered text, or the inexact prompt saying why there is none. */
    private Object rendered(VllmChatInput.Prepared prepared) {
        String rendered;
        try {
            rendered = template.render(prepared.context());
        } catch (TemplateException e) {
            return Prompt.inexact("chat template failed on this request: " + e.getMessage());
        }
        if (prepared.continueFinalMessage()) {
            rendered = VllmChatInput.cutAtContinuationTag(rendered);
            if (rendered == null) {
                return Prompt.inexact("continue_final_message: the template dropped the final message's text");
            }
        }
        return rendered;
    }

    /** The ids a vLLM node feeds its model for this {@code /v1/completions} body (one prompt: text or token ids). */
    public Prompt completion(JsonNode body) {
        JsonNode prompt = body.path("prompt");
        if (prompt.isString()) {
            return Prompt.of(body.path("add_special_tokens").asBoolean(true)
                    ? tokenizer.idsWithSpecialTokens(prompt.asString()) : tokenizer.ids(prompt.asString()));
        }
        if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
            int[] ids = new int[prompt.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = prompt.get(i).asInt();
            }
            return Prompt.of(ids);
        }
        return Prompt.inexact("a completions prompt that is not one text or one list of token ids");
    }

}
