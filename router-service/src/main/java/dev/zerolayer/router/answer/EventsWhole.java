package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseFramer;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * A whole answer assembled from a node's events: the node's stream read as {@link AnswerEvent}s and handed to the
 * client API's assembler (an Anthropic message, a chat completion through its chunks, or a Responses object); kept
 * (when asked) in a {@link Transcript} so that, broken mid-way, another node's continuation goes on into the same
 * assembler through a {@link Splice}.
 */
final class EventsWhole implements WholeAnswer {

    private final SseFramer framer = new SseFramer();
    private final UpstreamDecoder decoder;
    private final Consumer<AnswerEvent> sink;
    private final Supplier<ObjectNode> result;
    private final Transcript transcript;
    private final Splice splice;
    private boolean stopped;
    private ObjectNode error;
    private int inputTokens;
    private int outputTokens;

    private EventsWhole(UpstreamDecoder decoder, Consumer<AnswerEvent> sink, Supplier<ObjectNode> result,
            Transcript transcript, Splice splice) {
        this.decoder = decoder;
        this.sink = sink;
        this.result = result;
        this.transcript = transcript;
        this.splice = splice;
    }

    /** @param transcript keeps what was assembled (null: not kept) */
    static EventsWhole anthropic(UpstreamDecoder decoder, String model, Transcript transcript) {
        MessageAssembler assembler = new MessageAssembler();
        return new EventsWhole(decoder, assembler::accept, () -> assembler.message(model), transcript, null);
    }

    static EventsWhole chat(UpstreamDecoder decoder, String model, Transcript transcript) {
        ChatChunkWriter writer = new ChatChunkWriter(model);
        ChatAssembler assembler = new ChatAssembler(false);
        return new EventsWhole(decoder, event -> writer.write(event).forEach(assembler::accept),
                () -> assembler.completion(model), transcript, null);
    }

    static EventsWhole responses(UpstreamDecoder decoder, ResponsesWriter writer, Transcript transcript) {
        return new EventsWhole(decoder, writer::write, writer::response, transcript, null);
    }

    /** The rest of this broken answer from another node ({@code decoder} reads it), going on from {@code go}. */
    EventsWhole continued(UpstreamDecoder decoder, Transcript.Go go) {
        return continuing(decoder, sink, result, transcript, go);
    }

    /**
     * The rest of a broken answer from another node, its events spliced after {@code go} into {@code sink} (the
     * broken answer's assembler), {@code result} the whole answer then.
     */
    static EventsWhole continuing(UpstreamDecoder decoder, Consumer<AnswerEvent> sink, Supplier<ObjectNode> result,
            Transcript transcript, Transcript.Go go) {
        EventsWhole rest = new EventsWhole(decoder, sink, result, transcript, new Splice(go));
        rest.inputTokens = go.inputTokens();
        rest.outputTokens = go.sentTokens();
        return rest;
    }

    @Override
    public Transcript transcript() {
        return transcript;
    }

    @Override
    public void onChunk(byte[] chunk) {
        for (byte[] raw : framer.add(chunk)) {
            accept(decoder.read(raw));
        }
    }

    @Override
    public ObjectNode onEnd() {
        byte[] rest = framer.rest();
        if (rest != null) {
            accept(decoder.read(rest));
        }
        accept(decoder.end());
        return stopped && error == null ? result.get() : null;
    }

    private void accept(List<AnswerEvent> events) {
        for (AnswerEvent event : events) {
            if (stopped || error != null) {
                return;
            }
            if (event instanceof AnswerEvent.Failure failure) {
                error = failure.error();
                return;
            }
            if (splice == null) {
                assemble(event);
            } else {
                splice.shown(event).forEach(this::assemble);
            }
        }
    }

    private void assemble(AnswerEvent event) {
        if (event instanceof AnswerEvent.Start start) {
            inputTokens = start.message().path("usage").path("input_tokens").asInt(0);
        } else if (event instanceof AnswerEvent.MessageDelta delta) {
            inputTokens = delta.usage().path("input_tokens").asInt(inputTokens);
            outputTokens = delta.usage().path("output_tokens").asInt(outputTokens);
        } else if (event instanceof AnswerEvent.Stop) {
            stopped = true;
        }
        if (transcript != null) {
            transcript.add(event);
        }
        sink.accept(event);
    }

    @Override
    public ObjectNode nodeError() {
        return error;
    }

    @Override
    public int inputTokens() {
        return inputTokens;
    }

    @Override
    public int outputTokens() {
        return outputTokens;
    }

    static ObjectNode obj() {
        return EventCodec.mapper().createObjectNode();
    }
}
