package dev.zerolayer.router.answer;

import tools.jackson.databind.node.ObjectNode;

/**
 * How one attempt's upstream stream becomes a whole answer in the client's API: chunks are read as they come, and at
 * the upstream's end the answer is the body the node would have sent whole, or null when the stream ended early or
 * with the node's error ({@link #nodeError()}). Used by one attempt at a time.
 */
public interface WholeAnswer {

    void onChunk(byte[] chunk);

    /** The whole answer, or null when the stream did not complete. */
    ObjectNode onEnd();

    /** The error the node sent mid-stream (null when none). */
    ObjectNode nodeError();

    int inputTokens();

    int outputTokens();

    /** What was assembled so far, kept for a continuation (null: not kept, or this answer cannot go on elsewhere). */
    default Transcript transcript() {
        return null;
    }
}
