package dev.zerolayer.routing.complexity;

import java.util.Locale;

/** Who wrote a turn: the user, the assistant, or a tool result; anything else a client sends counts as the user. */
public enum Role {
    USER,
    ASSISTANT,
    TOOL;

    /** Lenient parse of a wire role ({@code "user"}, {@code "assistant"}, {@code "tool"}; others are USER). */
    public static Role parse(String role) {
        if (role == null) {
            return USER;
        }
        return switch (role.trim().toLowerCase(Locale.ROOT)) {
            case "assistant", "model" -> ASSISTANT;
            case "tool", "function", "tool_result" -> TOOL;
            default -> USER;
        };
    }
}
