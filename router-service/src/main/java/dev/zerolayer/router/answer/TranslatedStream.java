package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.wire.SseEvent;
import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node's stream in one API to a client of another: the node's events are read as {@link AnswerEvent}s and written
 * in the client's API (Anthropic events, Chat Completions chunks ending in {@code [DONE]}, or Responses events); usage,
 * the end and the node's error are tracked from the events.
 */
final class TranslatedStream implements StreamAnswer {

    private final SseFramer framer = new SseFramer();
    private final UpstreamDecoder decoder;
    private final Function<AnswerEvent, byte[]> writer;
    private final Function<String, byte[]> failure;
    private boolean terminal;
    private boolean failed;
    /** Whether the client got any bytes of this answer (before that, a node's error is a failed attempt). */
    private boolean emitted;
    private int inputTokens;
    private int outputTokens;

    private TranslatedStream(UpstreamDecoder decoder, Function<AnswerEvent, byte[]> writer,
            Function<String, byte[]> failure) {
        this.decoder = decoder;
        this.writer = writer;
        this.failure = failure;
    }

    static TranslatedStream toAnthropic(UpstreamDecoder decoder, AnthropicSseWriter writer) {
        return new TranslatedStream(decoder, writer::write, message -> AnthropicSseWriter.error(
                EventCodec.mapper().createObjectNode().put("type", "overloaded_error").put("message", message)));
    }

    static TranslatedStream toChat(UpstreamDecoder decoder, ChatChunkWriter writer, boolean clientWantsUsage) {
        return new TranslatedStream(decoder, event -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream(256);
            for (ObjectNode chunk : writer.write(event)) {
                if (!clientWantsUsage && ChatChunkWriter.usageOnly(chunk)) {
                    continue;
                }
                out.writeBytes(new SseEvent(null, EventCodec.mapper().writeValueAsString(chunk)).bytes());
            }
            if (event instanceof AnswerEvent.Stop || event instanceof AnswerEvent.Failure) {
                out.writeBytes(new SseEvent(null, "[DONE]").bytes());
            }
            return out.toByteArray();
        }, ChatPassThrough::errorChunk);
    }

    static TranslatedStream toResponses(UpstreamDecoder decoder, ResponsesWriter writer) {
        return new TranslatedStream(decoder, event -> events(writer.write(event)), message -> events(
                writer.failed(message)));
    }

    private static byte[] events(List<ObjectNode> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        for (ObjectNode event : events) {
            out.writeBytes(new SseEvent(event.path("type").asString(""), EventCodec.mapper()
                    .writeValueAsString(event)).bytes());
        }
        return out.toByteArray();
    }

    @Override
    public byte[] onChunk(byte[] chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length + 64);
        for (byte[] raw : framer.add(chunk)) {
            write(decoder.read(raw), out);
        }
        return out.toByteArray();
    }

    @Override
    public byte[] onEnd() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        byte[] rest = framer.rest();
        if (rest != null) {
            write(decoder.read(rest), out);
        }
        write(decoder.end(), out);
        if (!terminal && !emitted) {
            throw UpstreamFailure.of("upstream_empty_response");
        }
        if (!terminal) {
            out.writeBytes(onFailure("the upstream node failed mid-stream"));
        }
        return out.toByteArray();
    }

    @Override
    public byte[] onFailure(String message) {
        failed = true;
        if (terminal) {
            return new byte[0];
        }
        terminal = true;
        return failure.apply(message);
    }

    private void write(List<AnswerEvent> events, ByteArrayOutputStream out) {
        for (AnswerEvent event : events) {
            if (terminal) {
                return;
            }
            if (event instanceof AnswerEvent.Failure && !emitted && out.size() == 0) {
                throw UpstreamFailure.of("upstream_error_event");
            }
            track(event);
            out.writeBytes(writer.apply(event));
        }
        emitted |= out.size() > 0;
    }

    private void track(AnswerEvent event) {
        if (event instanceof AnswerEvent.Start start) {
            inputTokens = start.message().path("usage").path("input_tokens").asInt(0);
            outputTokens = start.message().path("usage").path("output_tokens").asInt(0);
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            inputTokens = delta.usage().path("input_tokens").asInt(inputTokens);
            outputTokens = delta.usage().path("output_tokens").asInt(outputTokens);
        } else if (event instanceof AnswerEvent.Stop) {
            terminal = true;
        } else if (event instanceof AnswerEvent.Failure) {
            terminal = true;
            failed = true;
        }
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public int inputTokens() {
        return inputTokens;
    }

    @Override
    public int outputTokens() {
        return outputTokens;
    }
}
