package dev.zerolayer.router.answer;

import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node's stream in one API to a client of another: the node's events are read as {@link AnswerEvent}s and written
 * in the client's API by the request's {@link ClientEvents}; usage, the end and the node's error are tracked from the
 * events, and what the client got is kept (when asked) for a continuation.
 */
final class TranslatedStream implements StreamAnswer {

    private final SseFramer framer = new SseFramer();
    private final UpstreamDecoder decoder;
    private final ClientEvents client;
    private final Transcript transcript;
    private boolean terminal;
    private boolean failed;
    /** Whether the client got any bytes of this answer (before that, a node's error is a failed attempt). */
    private boolean emitted;
    private UpstreamFailure brokeOff;
    private ObjectNode nodeError;
    private int inputTokens;
    private int outputTokens;

    /** @param transcript receives every event the client got (null: not kept) */
    TranslatedStream(UpstreamDecoder decoder, ClientEvents client, Transcript transcript) {
        this.decoder = decoder;
        this.client = client;
        this.transcript = transcript;
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
            terminal = true;
            brokeOff = UpstreamFailure.of("upstream_incomplete");
        }
        return out.toByteArray();
    }

    @Override
    public UpstreamFailure brokeOff() {
        return brokeOff;
    }

    @Override
    public Transcript transcript() {
        return transcript;
    }

    @Override
    public byte[] onFailure(String message) {
        failed = true;
        if (terminal && brokeOff == null) {
            return new byte[0];
        }
        terminal = true;
        brokeOff = null;
        return client.failure(nodeError, message);
    }

    @Override
    public byte[] close() {
        terminal = true;
        brokeOff = null;
        return client.close();
    }

    private void write(List<AnswerEvent> events, ByteArrayOutputStream out) {
        for (AnswerEvent event : events) {
            if (terminal) {
                return;
            }
            if (event instanceof AnswerEvent.Failure failure) {
                if (!emitted && out.size() == 0) {
                    throw UpstreamFailure.of("upstream_error_event");
                }
                // the node broke the answer it had begun: what follows is the dispatcher's call
                terminal = true;
                nodeError = failure.error();
                brokeOff = UpstreamFailure.of("upstream_error_event");
                break;
            }
            track(event);
            if (transcript != null) {
                transcript.add(event);
            }
            out.writeBytes(client.write(event));
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
