package dev.zerolayer.routing.refusal;

import java.util.List;
import java.util.Locale;

/**
 * An answer is a refusal when the upstream says so (Anthropic {@code stop_reason: "refusal"}, an OpenAI
 * {@code message.refusal}) or when a short answer opens with a declining phrase in English or Chinese.
 */
public final class RefusalDetector {

    /** Answers longer than this are never judged by their wording: a long answer that opens politely is not a refusal. */
    static final int MAX_REFUSAL_CHARS = 600;

    private static final List<String> OPENINGS = List.of(
            "i can't help", "i cannot help", "i can not help", "i can't assist", "i cannot assist",
            "i'm sorry, but i can't", "i'm sorry, but i cannot", "i am sorry, but i cannot", "i'm sorry, i can't",
            "sorry, but i can't", "sorry, i can't", "i'm unable to", "i am unable to", "i won't be able to",
            "i will not be able to", "i'm not able to", "i am not able to", "i must decline", "i have to decline",
            "as an ai, i can't", "as an ai, i cannot",
            "抱歉，我无法", "抱歉,我无法", "对不起，我无法", "对不起,我无法", "抱歉，我不能", "对不起，我不能",
            "我无法帮助", "我不能帮助", "我无法提供", "我不能提供");

    private RefusalDetector() {
    }

    /**
     * @param stopReason    the upstream's stop/finish reason (may be null)
     * @param refusalField  an explicit refusal message from the upstream, such as OpenAI's {@code message.refusal}
     * @param text          the answer's text (may be null)
     */
    public static boolean isRefusal(String stopReason, String refusalField, String text) {
        if ("refusal".equalsIgnoreCase(stopReason)) {
            return true;
        }
        if (refusalField != null && !refusalField.isBlank()) {
            return true;
        }
        if (text == null) {
            return false;
        }
        String answer = text.strip();
        if (answer.isEmpty() || answer.length() > MAX_REFUSAL_CHARS) {
            return false;
        }
        String opening = answer.substring(0, Math.min(answer.length(), 60)).toLowerCase(Locale.ROOT)
                .replace('\u2019', '\'');
        return OPENINGS.stream().anyMatch(opening::startsWith);
    }
}
