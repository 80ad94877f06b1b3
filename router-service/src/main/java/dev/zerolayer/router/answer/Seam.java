package dev.zerolayer.router.answer;

import java.util.List;

/**
 * A continuation spliced into the client's stream: the new node's events rewritten by a {@link Splice} to go on where
 * the broken answer stopped, then written by the request's {@link ClientEvents} and added to the same
 * {@link Transcript}, so a second break can go on again.
 */
final class Seam extends TranslatedStream {

    private final Splice splice;

    Seam(UpstreamDecoder decoder, ClientEvents client, Transcript transcript, Transcript.Go go) {
        super(decoder, client, transcript);
        this.splice = new Splice(go);
        this.inputTokens = go.inputTokens();
        this.outputTokens = go.sentTokens();
    }

    /** The events the client gets for one of the new node's. */
    @Override
    protected List<AnswerEvent> shown(AnswerEvent event) {
        List<AnswerEvent> shown = splice.shown(event);
        if (event instanceof AnswerEvent.MessageDelta) {
            inputTokens = splice.inputTokens();
            outputTokens = splice.outputTokens();
        }
        terminal |= splice.stopped();
        return shown;
    }
}
