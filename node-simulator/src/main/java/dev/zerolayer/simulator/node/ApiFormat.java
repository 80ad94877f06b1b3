package dev.zerolayer.simulator.node;

import java.util.List;

/**
 * How one client API renders a completion: the whole response body, the SSE frames of a stream (each marked when it
 * carries a generated token: a stream sends everything up to its first token frame at the first token, then one token
 * frame, with the frames before it, per token), and its error shape.
 */
interface ApiFormat {

    String path();

    /** The non-streaming response body. */
    String message(Completion completion);

    /** The stream's frames in order. */
    List<Frame> frames(Completion completion, boolean includeUsage);

    /** An error body in this API's shape. */
    String error(ApiException error);

    /** A server-side failure of this API (500 or the API's overload status), chosen by {@code overloaded}. */
    ApiException serverError(boolean overloaded);

    /** The prefix of this API's tool call ids. */
    String toolIdPrefix();

    /** One SSE frame, and whether it carries a generated token (the stream is timed by those). */
    record Frame(String text, boolean token) {

        static Frame token(String text) {
            return new Frame(text, true);
        }

        static Frame other(String text) {
            return new Frame(text, false);
        }
    }
}
