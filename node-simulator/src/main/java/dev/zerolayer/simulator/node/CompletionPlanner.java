package dev.zerolayer.simulator.node;

import dev.zerolayer.simulator.latency.OutputLength;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides what a simulated model answers, deterministically from the request's seed: thinking first when asked (its
 * signature derived from the seed), then a tool call when one is required ({@code tool_choice} any / a named tool) or
 * when the latest user text asks for a tool by name ("use the X tool", "call X") and does not already answer a tool
 * call, with an input that validates against the tool's schema (backquoted words of the prompt fill its strings);
 * otherwise text of a drawn length (at least the request's {@code min_tokens}), cut at the first stop sequence. An
 * answer whose start the request prefills goes on from there: the rest of the answer the same draw gives without it
 * when that answer starts so, else fresh text; within the request's limit. Several choices each get their own draw.
 */
final class CompletionPlanner {

    /** Tokens of thinking at most (within the request's limit). */
    private static final int MAX_THINKING = 48;
    private static final Pattern QUOTED = Pattern.compile("`([^`\\n]{1,512})`");
    private static final int JSON_PIECE = 6;

    private final TextGenerator generator = new TextGenerator();
    private final OutputLength lengths;

    CompletionPlanner(OutputLength lengths) {
        this.lengths = lengths;
    }

    /** @param toolIdPrefix how this API's tool call ids begin ({@code toolu_}, {@code call_}) */
    List<Completion.Choice> plan(ChatRequest chat, SplittableRandom random, String toolIdPrefix) {
        List<Completion.Choice> choices = new ArrayList<>(chat.choices());
        for (int i = 0; i < chat.choices(); i++) {
            SplittableRandom draw = i == 0 ? random : random.split();
            choices.add(choice(chat, draw, toolIdPrefix));
        }
        return choices;
    }

    private Completion.Choice choice(ChatRequest chat, SplittableRandom random, String toolIdPrefix) {
        int budget = chat.maxTokens();
        String[] thinking = new String[0];
        String signature = null;
        if (chat.thinking().enabled() && budget > 1) {
            thinking = generator.pieces(random, Math.min(budget - 1, 8 + random.nextInt(MAX_THINKING - 7)));
            signature = signature(random);
            budget -= thinking.length;
        }
        ChatRequest.Tool tool = toolToCall(chat);
        if (tool != null) {
            String input = new SchemaValues(tool.schema(), random, quoted(chat.latestUserText())).value().toString();
            String id = toolIdPrefix + base36(random, 24);
            Completion.ToolCall call = new Completion.ToolCall(id, tool.name(), input, pieces(input));
            return new Completion.Choice(thinking, signature, !chat.thinking().omitted(), new String[0], call,
                    Completion.Stop.TOOL_USE, null);
        }
        if (chat.prefill() != null) {
            return continued(chat, random, budget);
        }
        OutputLength.Draw draw = lengths.draw(random, budget);
        if (draw.tokens() < Math.min(chat.minTokens(), budget)) {
            int tokens = Math.min(chat.minTokens(), budget);
            draw = new OutputLength.Draw(tokens, tokens >= chat.maxTokens());
        }
        String[] pieces = generator.pieces(random, draw.tokens());
        return stopped(chat, thinking, signature, pieces, draw.capped() ? Completion.Stop.MAX_TOKENS
                : Completion.Stop.END);
    }

    /** A text choice cut at the first of the request's stop sequences in it, or with its own stop reason. */
    private static Completion.Choice stopped(ChatRequest chat, String[] thinking, String signature, String[] pieces,
            Completion.Stop stop) {
        String matched = null;
        if (!chat.stopSequences().isEmpty()) {
            String text = TextGenerator.text(pieces);
            int at = -1;
            for (String sequence : chat.stopSequences()) {
                int found = text.indexOf(sequence);
                if (found >= 0 && (at < 0 || found < at)) {
                    at = found;
                    matched = sequence;
                }
            }
            if (at >= 0) {
                pieces = cut(pieces, at);
                stop = Completion.Stop.STOP_SEQUENCE;
            }
        }
        return new Completion.Choice(thinking, signature, !chat.thinking().omitted(), pieces, null, stop, matched);
    }

    /**
     * The answer after its prefilled start: the whole answer drawn as without the prefill (its limit raised by the
     * prefill's length, a bound on its tokens, so the limit does not change the draw), the part after the prefill
     * when it starts so (a prefill ending inside a piece gets that piece's rest first), else fresh text seeded by the
     * prefill; then cut to the request's limit and at its first stop sequence.
     */
    private Completion.Choice continued(ChatRequest chat, SplittableRandom random, int budget) {
        String prefill = chat.prefill();
        OutputLength.Draw whole = lengths.draw(random, budget + prefill.length());
        String[] pieces = generator.pieces(random, whole.tokens());
        List<String> rest = new ArrayList<>();
        int length = 0;
        int at = 0;
        while (at < pieces.length && length + pieces[at].length() <= prefill.length()) {
            length += pieces[at++].length();
        }
        String answered = TextGenerator.text(java.util.Arrays.copyOf(pieces, at));
        if (prefill.startsWith(answered) && at < pieces.length && (answered + pieces[at]).startsWith(prefill)) {
            String partial = pieces[at].substring(prefill.length() - length);
            if (!partial.isEmpty()) {
                rest.add(partial);
            }
            rest.addAll(List.of(pieces).subList(at + 1, pieces.length));
        } else if (!answered.equals(prefill)) {
            SplittableRandom fresh = new SplittableRandom(prefill.hashCode() * 0x9E3779B97F4A7C15L);
            String[] more = generator.pieces(fresh, lengths.draw(fresh, budget).tokens());
            more[0] = " " + more[0];
            rest.addAll(List.of(more));
        }
        Completion.Stop stop = Completion.Stop.END;
        if (rest.size() >= budget) {
            // as the uninterrupted draw: reaching the limit is stopping for it
            rest = rest.subList(0, budget);
            stop = Completion.Stop.MAX_TOKENS;
        }
        return stopped(chat, new String[0], null, rest.toArray(String[]::new), stop);
    }

    /** The tool to call, or null: forced by the choice, else asked for by name in the latest user text. */
    static ChatRequest.Tool toolToCall(ChatRequest chat) {
        if (chat.tools().isEmpty() || chat.toolChoice().mode() == ChatRequest.ToolChoice.Mode.NONE) {
            return null;
        }
        switch (chat.toolChoice().mode()) {
            case TOOL -> {
                return chat.tools().stream().filter(t -> t.name().equals(chat.toolChoice().name())).findFirst()
                        .orElse(chat.tools().get(0));
            }
            case ANY -> {
                ChatRequest.Tool named = named(chat);
                return named != null ? named : chat.tools().get(0);
            }
            default -> {
                return chat.afterToolResult() ? null : named(chat);
            }
        }
    }

    /** The first tool the latest user text asks for: "use the X tool", "use X", "call X", "run X", "invoke X". */
    static ChatRequest.Tool named(ChatRequest chat) {
        ChatRequest.Tool first = null;
        int firstAt = Integer.MAX_VALUE;
        for (ChatRequest.Tool tool : chat.tools()) {
            Matcher matcher = Pattern.compile("(?i:\\b(?:use|using|call|run|invoke))\\s+(?i:the\\s+)?`?"
                    + Pattern.quote(tool.name()) + "`?(?![\\w-])").matcher(chat.latestUserText());
            if (matcher.find() && matcher.start() < firstAt) {
                first = tool;
                firstAt = matcher.start();
            }
        }
        return first;
    }

    private static List<String> quoted(String text) {
        List<String> values = new ArrayList<>();
        Matcher matcher = QUOTED.matcher(text);
        while (matcher.find()) {
            values.add(matcher.group(1));
        }
        return values;
    }

    /** The pieces up to the character {@code at} of their joined text (the piece holding it cut there). */
    private static String[] cut(String[] pieces, int at) {
        List<String> kept = new ArrayList<>();
        int length = 0;
        for (String piece : pieces) {
            if (length + piece.length() <= at) {
                kept.add(piece);
                length += piece.length();
            } else {
                if (at > length) {
                    kept.add(piece.substring(0, at - length));
                }
                break;
            }
        }
        return kept.toArray(String[]::new);
    }

    /** JSON cut into short pieces, each one streamed token. */
    private static String[] pieces(String json) {
        List<String> out = new ArrayList<>(json.length() / JSON_PIECE + 1);
        for (int i = 0; i < json.length(); i += JSON_PIECE) {
            int end = Math.min(json.length(), i + JSON_PIECE);
            if (end < json.length() && Character.isHighSurrogate(json.charAt(end - 1))) {
                end++;
            }
            out.add(json.substring(i, end));
            i = end - JSON_PIECE;
        }
        return out.toArray(String[]::new);
    }

    private static String signature(SplittableRandom random) {
        byte[] bytes = new byte[48];
        random.nextBytes(bytes);
        return java.util.Base64.getEncoder().encodeToString(bytes);
    }

    private static String base36(SplittableRandom random, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = Character.forDigit(random.nextInt(36), 36);
        }
        return new String(out);
    }
}
