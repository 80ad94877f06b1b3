package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.tokens.PromptParts;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Collects what a request's parser reads: each message's text in wire order (for token ids and prefix blocks), the
 * message count, tool definitions and already-priced tokens (for the token count), and the conversation the
 * complexity score reads (system instructions apart from the turns).
 */
final class PromptBuilder {

    private final List<String> texts = new ArrayList<>();
    private final List<String> extra = new ArrayList<>();
    private final StringBuilder system = new StringBuilder();
    private final List<Turn> turns = new ArrayList<>();
    private int messages;
    private long counted;

    /** Instructions (a system prompt, wherever it stands): a message when not empty. */
    void system(String text) {
        texts.add(text);
        if (!text.isEmpty()) {
            messages++;
            system.append(system.isEmpty() ? "" : "\n").append(text);
        }
    }

    /** A conversation message of a role, as its text. */
    void message(Role role, String text) {
        texts.add(text);
        messages++;
        turns.add(new Turn(role, text));
    }

    /** A definition that costs tokens without being a message (a tool's name, description and schema). */
    void definition(JsonNode definition) {
        extra.add(EventCodec.mapper().writeValueAsString(definition));
    }

    /** Tokens priced elsewhere (images, documents, prompts sent as token ids). */
    void counted(long tokens) {
        counted += Math.max(0, tokens);
    }

    PromptParts prompt() {
        return new PromptParts(texts, messages, extra, (int) Math.min(Integer.MAX_VALUE, counted));
    }

    Conversation conversation() {
        return new Conversation(system.toString(), turns);
    }

    /** A tool call's text as nodes see it: the tool's name, then its input as compact JSON. */
    static String toolCall(String name, String inputJson) {
        return (name == null ? "" : name) + (inputJson == null ? "" : inputJson);
    }

    /** Parts of one message joined by newlines. */
    static String join(List<String> parts) {
        return String.join("\n", parts);
    }

    static Role role(String wire) {
        return Role.parse(wire);
    }
}
