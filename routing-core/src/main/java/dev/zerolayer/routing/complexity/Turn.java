package dev.zerolayer.routing.complexity;

/** One message of a conversation: its role and its text (null text is the empty text). */
public record Turn(Role role, String text) {

    public Turn {
        role = role == null ? Role.USER : role;
        text = text == null ? "" : text;
    }

    public static Turn user(String text) {
        return new Turn(Role.USER, text);
    }

    public static Turn assistant(String text) {
        return new Turn(Role.ASSISTANT, text);
    }
}
