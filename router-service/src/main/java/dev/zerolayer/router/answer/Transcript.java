package dev.zerolayer.router.answer;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the client got of one answer, kept so a broken stream can go on elsewhere: the node's events as they were
 * passed on (read only when a stream breaks) or as translated, folded into the blocks sent (kind, text, closed), the
 * usage seen, the text deltas sent and whether the stop reason came; then what a continuation may do ({@link #resume}).
 */
public final class Transcript {

    /** A block the client got, by kind. */
    enum Kind { TEXT, THINKING, TOOL_USE, OTHER }

    /** One block as far as the client got it. */
    static final class Block {
        final int index;
        final Kind kind;
        final StringBuilder text = new StringBuilder();
        boolean closed;

        Block(int index, Kind kind) {
            this.index = index;
            this.kind = kind;
        }
    }

    /** What a continuation may do with what the client got. */
    public sealed interface Resume {
    }

    /**
     * Go on from {@code prefill} (the text sent, trailing whitespace cut off as the Messages API wants it; the cut-off
     * {@code tail} is dropped from the continuation's start), merging into the open text block {@code openText} (-1:
     * none open, the continuation's blocks start at {@code nextIndex}), {@code sentTokens} already sent.
     */
    public record Go(String prefill, String tail, int openText, int nextIndex, int sentTokens, int inputTokens,
            ObjectNode usage) implements Resume {
    }

    /** The node broke off after its stop reason: only the stream's end is missing. */
    public record Close() implements Resume {
    }

    /** The answer cannot go on elsewhere, and why (a short reason for the decision event). */
    public record Cannot(String reason) implements Resume {
    }

    private final UpstreamDecoder decoder;
    private final List<byte[]> raw = new ArrayList<>();
    private final List<Block> blocks = new ArrayList<>();
    private boolean started;
    private String messageId;
    private int inputTokens;
    private int outputTokens;
    private int textDeltas;
    private boolean stopReason;
    private ObjectNode usage;

    /** @param decoder reads the raw events kept (null: events are given already read) */
    Transcript(UpstreamDecoder decoder) {
        this.decoder = decoder;
    }

    /** A node's event passed on to the client as it was (read only if the stream breaks). */
    void raw(byte[] event) {
        raw.add(event);
    }

    /** An event the client got (translated). */
    void add(AnswerEvent event) {
        if (event instanceof AnswerEvent.Start start) {
            started = true;
            messageId = start.message().path("id").asString(null);
            usage = start.message().get("usage") instanceof ObjectNode u ? u : usage;
            inputTokens = start.message().path("usage").path("input_tokens").asInt(inputTokens);
            outputTokens = start.message().path("usage").path("output_tokens").asInt(outputTokens);
        } else if (event instanceof AnswerEvent.BlockStart start) {
            Kind kind = switch (start.block().path("type").asString("")) {
                case "text" -> Kind.TEXT;
                case "thinking", "redacted_thinking" -> Kind.THINKING;
                case "tool_use", "server_tool_use" -> Kind.TOOL_USE;
                default -> Kind.OTHER;
            };
            Block block = new Block(start.index(), kind);
            block.text.append(start.block().path("text").asString(""));
            blocks.add(block);
        } else if (event instanceof AnswerEvent.BlockDelta delta) {
            Block block = block(delta.index());
            if (block != null) {
                block.text.append(delta.value());
            }
            if (delta.kind() == AnswerEvent.Kind.TEXT) {
                textDeltas++;
            }
        } else if (event instanceof AnswerEvent.OtherDelta delta) {
            Block block = block(delta.index());
            if (block != null && block.kind == Kind.TEXT) {
                // a citation or other annotation: a text block that no longer continues as plain text
                blocks.set(blocks.indexOf(block), new Block(block.index, Kind.OTHER));
            }
        } else if (event instanceof AnswerEvent.BlockStop stop) {
            Block block = block(stop.index());
            if (block != null) {
                block.closed = true;
            }
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            stopReason |= delta.delta().hasNonNull("stop_reason");
            inputTokens = delta.usage().path("input_tokens").asInt(inputTokens);
            outputTokens = delta.usage().path("output_tokens").asInt(outputTokens);
        }
    }

    private Block block(int index) {
        for (int i = blocks.size() - 1; i >= 0; i--) {
            if (blocks.get(i).index == index) {
                return blocks.get(i);
            }
        }
        return null;
    }

    /** Reads the raw events kept (once). */
    private void fold() {
        if (decoder == null || raw.isEmpty()) {
            return;
        }
        for (byte[] event : raw) {
            for (AnswerEvent read : decoder.read(event)) {
                add(read);
            }
        }
        raw.clear();
    }

    /** The id of the message the client got (null before its start). */
    String messageId() {
        fold();
        return messageId;
    }

    /** What a continuation may do: go on from the text sent, only close the stream, or nothing. */
    public Resume resume() {
        fold();
        if (!started) {
            return new Cannot("nothing_sent");
        }
        if (stopReason) {
            return new Close();
        }
        StringBuilder text = new StringBuilder();
        int next = 0;
        for (Block block : blocks) {
            switch (block.kind) {
                case THINKING -> {
                    return new Cannot("thinking_sent");
                }
                case TOOL_USE -> {
                    return new Cannot(block.closed ? "tool_call_sent" : "tool_call_half_sent");
                }
                case OTHER -> {
                    return new Cannot("block_not_continuable");
                }
                case TEXT -> text.append(block.text);
            }
            next = Math.max(next, block.index + 1);
        }
        Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
        int open = last != null && !last.closed ? last.index : -1;
        int cut = text.length();
        while (cut > 0 && Character.isWhitespace(text.charAt(cut - 1))) {
            cut--;
        }
        return new Go(text.substring(0, cut), text.substring(cut), open, next, textDeltas,
                inputTokens, usage);
    }
}
