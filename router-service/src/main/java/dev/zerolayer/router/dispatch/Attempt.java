package dev.zerolayer.router.dispatch;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * One try of one node: the call to make, how the node's response bytes become what the client gets ({@code T}: a
 * stream's bytes, or one whole answer), and what ends the client's answer when the node fails after the client got
 * something.
 *
 * @param call       path, body and headers for the node
 * @param shape      the node's chunks (timed by the dispatcher) to the client's elements
 * @param afterStart the elements that end the client's answer when the node fails after the first one
 * @param served     what the attempt served (read after it ends: usage, whether it failed), for the outcome
 */
public record Attempt<T>(Call call, Function<Flux<byte[]>, Flux<T>> shape, Function<Throwable, Flux<T>> afterStart,
        Object served) {

    /** How to call one node: the path for its protocol, the body, and the headers to send (names may repeat). */
    public record Call(String path, byte[] body, List<Map.Entry<String, String>> headers) {
    }
}
