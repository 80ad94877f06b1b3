package dev.zerolayer.router.answer;

import tools.jackson.databind.node.ObjectNode;

/**
 * One event of an answer in the making, in the terms of the Anthropic Messages stream (the gateway's common form for
 * translation): the message starts, content blocks start, grow by deltas and stop, the message's stop reason and usage
 * arrive, the message stops; or the node reports an error.
 */
public sealed interface AnswerEvent {

    /** {@code message_start}: the message object (id, role, model, usage so far; content empty). */
    record Start(ObjectNode message) implements AnswerEvent {
    }

    /** {@code content_block_start}: a block (text, thinking, tool_use, …) as it starts. */
    record BlockStart(int index, ObjectNode block) implements AnswerEvent {
    }

    /** A delta of a block: its kind and the text it adds (text, thinking, signature or partial JSON). */
    record BlockDelta(int index, Kind kind, String value) implements AnswerEvent {
    }

    /** A delta of a kind this gateway does not grow itself (citations, …): its object as sent. */
    record OtherDelta(int index, ObjectNode delta) implements AnswerEvent {
    }

    /** {@code content_block_stop}. */
    record BlockStop(int index) implements AnswerEvent {
    }

    /** {@code message_delta}: the message's changes (stop reason, stop sequence, …) and cumulative usage. */
    record MessageDelta(ObjectNode delta, ObjectNode usage) implements AnswerEvent {
    }

    /** {@code message_stop}: the answer is complete. */
    record Stop() implements AnswerEvent {
    }

    /** The node reported an error mid-answer: its error object ({@code type}, {@code message}). */
    record Failure(ObjectNode error) implements AnswerEvent {
    }

    /** What a {@link BlockDelta} adds to its block. */
    enum Kind {
        TEXT("text_delta", "text"),
        THINKING("thinking_delta", "thinking"),
        SIGNATURE("signature_delta", "signature"),
        INPUT_JSON("input_json_delta", "partial_json");

        private final String wireType;
        private final String field;

        Kind(String wireType, String field) {
            this.wireType = wireType;
            this.field = field;
        }

        public String wireType() {
            return wireType;
        }

        public String field() {
            return field;
        }

        static Kind ofWire(String type) {
            for (Kind kind : values()) {
                if (kind.wireType.equals(type)) {
                    return kind;
                }
            }
            return null;
        }
    }
}
