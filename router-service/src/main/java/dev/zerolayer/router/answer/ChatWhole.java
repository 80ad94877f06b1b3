package dev.zerolayer.router.answer;

import dev.zerolayer.router.wire.SseEvent;
import dev.zerolayer.router.wire.SseFramer;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.node.ObjectNode;

/**
 * A whole OpenAI answer (chat or legacy completion) assembled from an OpenAI node's chunks for a client of the same
 * API: every choice, tool call and log probability as the node streamed them, the usage chunk as the usage; the chunks
 * kept (when asked) so that, broken mid-way, another node's continuation goes on into the same assembler.
 */
final class ChatWhole implements WholeAnswer {

    private final SseFramer framer = new SseFramer();
    private final ChatAssembler assembler;
    private final String model;
    private final Transcript transcript;
    private boolean broken;

    /** @param transcript keeps the chunks assembled (null: not kept) */
    ChatWhole(boolean legacy, String model, Transcript transcript) {
        this.assembler = new ChatAssembler(legacy);
        this.model = model;
        this.transcript = transcript;
    }

    /** The rest of this broken answer from another node ({@code decoder} reads it), going on from {@code go}. */
    WholeAnswer continued(UpstreamDecoder decoder, Transcript.Go go) {
        ChatChunkWriter writer = new ChatChunkWriter(model);
        return EventsWhole.continuing(decoder, event -> writer.write(event).forEach(assembler::accept),
                () -> assembler.completion(model), transcript, go);
    }

    @Override
    public Transcript transcript() {
        return transcript;
    }

    @Override
    public void onChunk(byte[] chunk) {
        for (byte[] raw : framer.add(chunk)) {
            read(raw);
        }
    }

    private void read(byte[] raw) {
        SseEvent event = SseEvent.parse(new String(raw, StandardCharsets.UTF_8));
        if (event.data() == null) {
            return;
        }
        if (transcript != null) {
            transcript.raw(raw);
        }
        if (event.data().trim().equals("[DONE]")) {
            assembler.done();
            return;
        }
        ObjectNode chunk = event.json();
        if (chunk == null) {
            // a malformed chunk: the answer would miss what it carried
            broken = true;
        } else {
            assembler.accept(chunk);
        }
    }

    @Override
    public ObjectNode onEnd() {
        byte[] rest = framer.rest();
        if (rest != null) {
            read(rest);
        }
        return assembler.complete() && !broken ? assembler.completion(model) : null;
    }

    @Override
    public ObjectNode nodeError() {
        return assembler.error();
    }

    @Override
    public int inputTokens() {
        return assembler.inputTokens();
    }

    @Override
    public int outputTokens() {
        return assembler.outputTokens();
    }
}
