package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * A continuation's events rewritten to go on where the broken answer stopped: the new node's answer starts over (its
 * own message start, blocks from 0, usage of its own); what follows it has no second message start, its first text
 * merged into the text block left open (the whitespace the prefill lost dropped from its start), later blocks numbered
 * after those sent, an empty block never shown, and the usage the whole answer's (input as first counted, output
 * tokens sent before plus the new ones).
 */
final class Splice {

    private final Transcript.Go go;
    /** The new node's block index to the client's (absent: a block not shown yet). */
    private final Map<Integer, Integer> indexes = new HashMap<>();
    /** A text block of the new node held back until it has text: its index there and its start. */
    private int heldIndex = -1;
    private ObjectNode heldBlock;
    private int nextIndex;
    private int openText;
    private String tail;
    private boolean first = true;
    private int inputTokens;
    private int outputTokens;
    private boolean stopped;

    Splice(Transcript.Go go) {
        this.go = go;
        this.nextIndex = go.nextIndex();
        this.openText = go.openText();
        this.tail = go.tail();
        this.inputTokens = go.inputTokens();
        this.outputTokens = go.sentTokens();
    }

    /** The events the client gets for one of the new node's (none for its start, its error or what is not shown). */
    List<AnswerEvent> shown(AnswerEvent event) {
        if (event instanceof AnswerEvent.Start start) {
            return List.of();
        }
        if (event instanceof AnswerEvent.BlockStart start) {
            boolean text = start.block().path("type").asString("").equals("text");
            if (first && text && openText >= 0) {
                first = false;
                indexes.put(start.index(), openText);
                String given = start.block().path("text").asString("");
                return given.isEmpty() ? List.of() : delta(openText, given);
            }
            first = false;
            if (text) {
                heldIndex = start.index();
                heldBlock = start.block();
                return List.of();
            }
            return List.of(closeOpen(), new AnswerEvent.BlockStart(shown(start.index()), start.block())).stream()
                    .filter(e -> e != null).toList();
        }
        if (event instanceof AnswerEvent.BlockDelta delta) {
            if (delta.index() == heldIndex) {
                String text = trimmed(delta.value());
                if (text.isEmpty()) {
                    return List.of();
                }
                ObjectNode block = heldBlock;
                heldIndex = -1;
                heldBlock = null;
                AnswerEvent close = closeOpen();
                int at = shown(delta.index());
                AnswerEvent begin = new AnswerEvent.BlockStart(at, block);
                AnswerEvent grow = new AnswerEvent.BlockDelta(at, delta.kind(), text);
                return close == null ? List.of(begin, grow) : List.of(close, begin, grow);
            }
            Integer at = indexes.get(delta.index());
            if (at == null) {
                return List.of();
            }
            String value = delta.kind() == AnswerEvent.Kind.TEXT ? trimmed(delta.value()) : delta.value();
            return value.isEmpty() ? List.of() : List.of(new AnswerEvent.BlockDelta(at, delta.kind(), value));
        }
        if (event instanceof AnswerEvent.OtherDelta delta) {
            Integer at = indexes.get(delta.index());
            return at == null ? List.of() : List.of(new AnswerEvent.OtherDelta(at, delta.delta()));
        }
        if (event instanceof AnswerEvent.BlockStop stop) {
            if (stop.index() == heldIndex) {
                // a text block that never had text: never shown
                heldIndex = -1;
                heldBlock = null;
                return List.of();
            }
            Integer at = indexes.get(stop.index());
            if (at == null) {
                return List.of();
            }
            if (at == openText) {
                openText = -1;
            }
            return List.of(new AnswerEvent.BlockStop(at));
        }
        if (event instanceof AnswerEvent.MessageDelta delta) {
            ObjectNode usage = go.usage() != null ? go.usage().deepCopy() : EventCodec.mapper().createObjectNode();
            int added = delta.usage().path("output_tokens").asInt(0);
            outputTokens = go.sentTokens() + added;
            if (inputTokens <= 0) {
                // the first node never said: the new one's count, less the prefill it was sent
                inputTokens = Math.max(0, delta.usage().path("input_tokens").asInt(0) - go.sentTokens());
            }
            usage.put("input_tokens", inputTokens).put("output_tokens", outputTokens);
            AnswerEvent close = closeOpen();
            AnswerEvent spliced = new AnswerEvent.MessageDelta(delta.delta(), usage);
            return close == null ? List.of(spliced) : List.of(close, spliced);
        }
        if (event instanceof AnswerEvent.Stop) {
            stopped = true;
            return List.of(event);
        }
        return List.of();
    }

    /** The whole answer's input tokens (as the broken answer counted them, else from the new node's). */
    int inputTokens() {
        return inputTokens;
    }

    /** The whole answer's output tokens: those sent before the break and the new node's. */
    int outputTokens() {
        return outputTokens;
    }

    /** Whether the new node's stop came. */
    boolean stopped() {
        return stopped;
    }

    /** The stop of the text block the broken answer left open, when the continuation moves past it (else null). */
    private AnswerEvent closeOpen() {
        if (openText < 0) {
            return null;
        }
        AnswerEvent stop = new AnswerEvent.BlockStop(openText);
        openText = -1;
        return stop;
    }

    private int shown(int index) {
        int at = nextIndex++;
        indexes.put(index, at);
        return at;
    }

    private List<AnswerEvent> delta(int at, String text) {
        String value = trimmed(text);
        return value.isEmpty() ? List.of() : List.of(new AnswerEvent.BlockDelta(at, AnswerEvent.Kind.TEXT, value));
    }

    /** The text less what the client already got of it (the whitespace the prefill had to lose). */
    private String trimmed(String text) {
        if (tail.isEmpty()) {
            return text;
        }
        if (text.startsWith(tail)) {
            String rest = text.substring(tail.length());
            tail = "";
            return rest;
        }
        if (tail.startsWith(text)) {
            tail = tail.substring(text.length());
            return "";
        }
        tail = "";
        return text;
    }
}
