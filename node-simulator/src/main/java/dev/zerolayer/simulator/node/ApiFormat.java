package dev.zerolayer.simulator.node;

import java.util.List;

/**
 * How one client API renders a completion: the whole response body, the SSE frames of a stream (head with the first
 * token, one frame per later token, tail) and its error shape.
 */
interface ApiFormat {

    String path();

    /** The non-streaming response body. */
    String message(Completion completion);

    /** The frames sent at the first token: stream opening plus the first piece (if any). */
    List<String> head(Completion completion);

    /** The frame carrying piece {@code index} (index >= 1). */
    String delta(Completion completion, int index);

    /** The frames closing the stream. */
    List<String> tail(Completion completion, boolean includeUsage);

    /** An error body in this API's shape. */
    String error(ApiException error);

    /** A server-side failure of this API (500 or the API's overload status), chosen by {@code overloaded}. */
    ApiException serverError(boolean overloaded);
}
