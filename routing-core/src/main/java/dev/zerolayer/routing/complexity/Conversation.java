package dev.zerolayer.routing.complexity;

import java.util.ArrayList;
import java.util.List;

/** What the scorer reads: the system prompt (empty when none) and the turns in order, the latest last. */
public record Conversation(String system, List<Turn> turns) {

    public Conversation {
        system = system == null ? "" : system;
        List<Turn> copy = new ArrayList<>(turns == null ? List.of() : turns);
        copy.removeIf(turn -> turn == null);
        turns = List.copyOf(copy);
    }

    /** A single user prompt without a system prompt. */
    public static Conversation ofUser(String prompt) {
        return new Conversation("", List.of(Turn.user(prompt)));
    }

    /** A system prompt and one user prompt. */
    public static Conversation of(String system, String prompt) {
        return new Conversation(system, List.of(Turn.user(prompt)));
    }

    /** Index of the latest user turn, or -1 when no turn is the user's. */
    public int latestUserIndex() {
        for (int i = turns.size() - 1; i >= 0; i--) {
            if (turns.get(i).role() == Role.USER) {
                return i;
            }
        }
        return -1;
    }

    /** Total characters of every text (system included). */
    public long totalChars() {
        long total = system.length();
        for (Turn turn : turns) {
            total += turn.text().length();
        }
        return total;
    }
}
