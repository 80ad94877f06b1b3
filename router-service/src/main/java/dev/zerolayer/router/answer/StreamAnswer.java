package dev.zerolayer.router.answer;

/**
 * How one attempt's upstream stream becomes the client's stream: bytes out per upstream chunk, the last bytes when the
 * upstream ends (an error event when it ended before the answer did), the bytes that end the client's stream with the
 * API's error when the upstream fails after the client got bytes, and the usage seen. Used by one attempt at a time.
 */
public interface StreamAnswer {

    /** The client's bytes for one upstream chunk (empty when it completed nothing the client sees). */
    byte[] onChunk(byte[] chunk);

    /** The upstream ended: whatever ends the client's stream (an error event when the answer was incomplete). */
    byte[] onEnd();

    /** The upstream failed after the client got bytes: the API's error, ending the stream. */
    byte[] onFailure(String message);

    /** Whether the answer ended badly (the node's error, or an incomplete stream). */
    boolean failed();

    int inputTokens();

    int outputTokens();
}
