package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.SseFramer;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * A whole answer assembled from a node's events: the node's stream read as {@link AnswerEvent}s and handed to the
 * client API's assembler (an Anthropic message, a chat completion through its chunks, or a Responses object).
 */
final class EventsWhole implements WholeAnswer {

    private final SseFramer framer = new SseFramer();
    private final UpstreamDecoder decoder;
    private final Consumer<AnswerEvent> sink;
    private final Supplier<ObjectNode> result;
    private boolean stopped;
    private ObjectNode error;
    private int inputTokens;
    private int outputTokens;

    private EventsWhole(UpstreamDecoder decoder, Consumer<AnswerEvent> sink, Supplier<ObjectNode> result) {
        this.decoder = decoder;
        this.sink = sink;
        this.result = result;
    }

    static EventsWhole anthropic(UpstreamDecoder decoder, String model) {
        MessageAssembler assembler = new MessageAssembler();
        return new EventsWhole(decoder, assembler::accept, () -> assembler.message(model));
    }

    static EventsWhole chat(UpstreamDecoder decoder, String model) {
        ChatChunkWriter writer = new ChatChunkWriter(model);
        ChatAssembler assembler = new ChatAssembler(false);
        return new EventsWhole(decoder, event -> writer.write(event).forEach(assembler::accept),
                () -> assembler.completion(model));
    }

    static EventsWhole responses(UpstreamDecoder decoder, ResponsesWriter writer) {
        return new EventsWhole(decoder, writer::write, writer::response);
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
            if (event instanceof AnswerEvent.Start start) {
                inputTokens = start.message().path("usage").path("input_tokens").asInt(0);
            } else if (event instanceof AnswerEvent.MessageDelta delta) {
                inputTokens = delta.usage().path("input_tokens").asInt(inputTokens);
                outputTokens = delta.usage().path("output_tokens").asInt(outputTokens);
            } else if (event instanceof AnswerEvent.Stop) {
                stopped = true;
            } else if (event instanceof AnswerEvent.Failure failure) {
                error = failure.error();
                return;
            }
            sink.accept(event);
        }
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
