package dev.zerolayer.router.answer;

import dev.zerolayer.router.dispatch.UpstreamFailure;

/**
 * How one attempt's upstream stream becomes the client's stream: bytes out per upstream chunk, the last bytes when the
 * upstream ends, the node breaking the answer after the client got bytes (its error event, or its end before the
 * answer's) reported after those bytes, and what then ends the client's stream: the API's error, or its end when only
 * that was missing; the usage seen and what the client got. Used by one attempt at a time.
 */
public interface StreamAnswer {

    /** The client's bytes for one upstream chunk (empty when it completed nothing the client sees). */
    byte[] onChunk(byte[] chunk);

    /** The upstream ended: the client's last bytes of it. */
    byte[] onEnd();

    /**
     * The node broke the answer it had begun while the last chunk (or the end) was read: the failure to act on once
     * the bytes returned for it are sent; null while it has not.
     */
    UpstreamFailure brokeOff();

    /** The upstream failed after the client got bytes: the API's error (the node's own when it sent one), ending it. */
    byte[] onFailure(String message);

    /** The node broke off after the answer's stop reason: the bytes that end the client's stream properly. */
    byte[] close();

    /** What the client got of this answer, for a continuation (null when it is not kept). */
    Transcript transcript();

    /** Whether the answer ended badly (the node's error, or an incomplete stream). */
    boolean failed();

    int inputTokens();

    int outputTokens();
}
