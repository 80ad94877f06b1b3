package dev.zerolayer.router.answer;

import dev.zerolayer.router.wire.SseFramer;
import java.io.ByteArrayOutputStream;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node's stream in one API to a client of another: the node's events are read as {@link AnswerEvent}s and written
 * in the client's API by the request's {@link ClientEvents}; usage, the end and the node's error are tracked from the
 * events, and what the client got is kept (when asked) for a continuation.
 */
class TranslatedStream extends AttemptStream {

    private final SseFramer framer = new SseFramer();
    private final UpstreamDecoder decoder;
    private final ClientEvents client;

    /** @param transcript receives every event the client got (null: not kept) */
    TranslatedStream(UpstreamDecoder decoder, ClientEvents client, Transcript transcript) {
        super(transcript);
        this.decoder = decoder;
        this.client = client;
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
        emitted |= out.size() > 0;
        upstreamEnded();
        return out.toByteArray();
    }

    private void write(List<AnswerEvent> events, ByteArrayOutputStream out) {
        for (AnswerEvent event : events) {
            if (terminal) {
                return;
            }
            if (event instanceof AnswerEvent.Failure failure) {
                // after the client got bytes the node broke the answer: what follows is the dispatcher's call
                nodeError(failure.error(), emitted || out.size() > 0);
                break;
            }
            for (AnswerEvent shown : shown(event)) {
                if (transcript != null) {
                    transcript.add(shown);
                }
                out.writeBytes(client.write(shown));
            }
        }
        emitted |= out.size() > 0;
    }

    /** The events the client gets for one of the node's (the event itself, its usage and end tracked). */
    protected List<AnswerEvent> shown(AnswerEvent event) {
        track(event);
        return List.of(event);
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
    protected byte[] errorBytes(ObjectNode nodeError, String message) {
        return client.failure(nodeError, message);
    }

    @Override
    protected byte[] closeBytes() {
        return client.close();
    }
}
