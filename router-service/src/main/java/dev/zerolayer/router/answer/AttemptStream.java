package dev.zerolayer.router.answer;

import dev.zerolayer.router.dispatch.UpstreamFailure;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every client stream of one attempt shares: how it ended (the answer's own end, the node breaking it, the API's
 * error, or the router closing it), whether the client got bytes of it, the usage seen and what the client got.
 */
abstract class AttemptStream implements StreamAnswer {

    /** What the client got (null: not kept). */
    protected final Transcript transcript;
    /** Nothing more of the node's is read: the answer ended, or the node broke it. */
    protected boolean terminal;
    /** Whether the client got any bytes of this answer (before that, a node's error is a failed attempt). */
    protected boolean emitted;
    protected int inputTokens;
    protected int outputTokens;
    private boolean failed;
    private UpstreamFailure brokeOff;
    private ObjectNode nodeError;

    AttemptStream(Transcript transcript) {
        this.transcript = transcript;
    }

    /** The node sent its error: before the client got anything the attempt fails (the next node serves), else a break. */
    protected final void nodeError(ObjectNode error, boolean clientGotSome) {
        if (!clientGotSome) {
            throw UpstreamFailure.of("upstream_error_event");
        }
        broke("upstream_error_event", error);
    }

    /** The node's stream ended: with nothing sent the attempt fails, before the answer's own end it broke it. */
    protected final void upstreamEnded() {
        if (terminal) {
            return;
        }
        if (!emitted) {
            throw UpstreamFailure.of("upstream_empty_response");
        }
        broke("upstream_incomplete", null);
    }

    private void broke(String reason, ObjectNode error) {
        terminal = true;
        nodeError = error;
        brokeOff = UpstreamFailure.of(reason);
    }

    /** The API's error event(s) ending the client's stream: the node's error object when it sent one. */
    protected abstract byte[] errorBytes(ObjectNode nodeError, String message);

    /** The end of a stream whose stop reason the client already got. */
    protected abstract byte[] closeBytes();

    @Override
    public final UpstreamFailure brokeOff() {
        return brokeOff;
    }

    @Override
    public final Transcript transcript() {
        return transcript;
    }

    @Override
    public final byte[] onFailure(String message) {
        failed = true;
        if (terminal && brokeOff == null) {
            return new byte[0];
        }
        terminal = true;
        brokeOff = null;
        return errorBytes(nodeError, message);
    }

    @Override
    public final byte[] close() {
        terminal = true;
        brokeOff = null;
        return closeBytes();
    }

    @Override
    public final boolean failed() {
        return failed;
    }

    @Override
    public final int inputTokens() {
        return inputTokens;
    }

    @Override
    public final int outputTokens() {
        return outputTokens;
    }
}
