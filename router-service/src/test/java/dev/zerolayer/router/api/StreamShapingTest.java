package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.router.answer.StreamAnswer;
import dev.zerolayer.router.answer.Transcript;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

/**
 * A node's chunks become the client's bytes in order, an answer's last bytes follow the node's end, chunks that complete
 * nothing send nothing, and a node breaking its answer fails the stream right after the bytes it produced, cancelling
 * the node's stream.
 */
class StreamShapingTest {

    @Test
    void passesBytesInOrderDropsEmptyOnesAndEndsWithTheAnswersEnd() {
        // Given a node whose second chunk completes nothing the client sees
        Echo answer = new Echo();

        // When its three chunks and its end are shaped
        List<String> out = Dispatching.shaped(Flux.just(bytes("a"), bytes(""), bytes("b")), answer)
                .map(StreamShapingTest::text).collectList().block();

        // Then the client gets the non-empty bytes, then the answer's end, and nothing broke
        assertThat(out).containsExactly("a", "b", "end");
        assertThat(answer.brokeOff()).isNull();
    }

    @Test
    void aNodeBreakingItsAnswerFailsTheStreamAfterTheBytesBeforeItAndCancelsTheNode() {
        // Given a node still sending when a chunk breaks its answer
        TestPublisher<byte[]> node = TestPublisher.create();
        Echo answer = new Echo();

        // When it sends a chunk, then the chunk that breaks the answer (with bytes of its own), then more
        StepVerifier.create(Dispatching.shaped(node.flux(), answer).map(StreamShapingTest::text))
                .then(() -> node.next(bytes("a")))
                .expectNext("a")
                .then(() -> node.next(bytes("break:last")))
                // Then the break's bytes are sent, the stream fails with the node's failure, and the node is cancelled
                .expectNext("last")
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UpstreamFailure.class)
                        .hasMessageContaining("upstream_error_event"))
                .verify();
        node.assertCancelled();
        assertThat(answer.ended).isFalse();
    }

    @Test
    void aBreakThatSendsNothingStillFailsTheStream() {
        // Given a node whose breaking chunk has no bytes for the client
        Echo answer = new Echo();

        // When it is shaped
        StepVerifier.create(Dispatching.shaped(Flux.just(bytes("a"), bytes("break:"), bytes("b")), answer)
                        .map(StreamShapingTest::text))
                // Then the bytes before it are sent and the stream fails at once, the later chunk never read
                .expectNext("a")
                .expectError(UpstreamFailure.class)
                .verify();
    }

    @Test
    void aNodeEndingTooEarlyFailsTheStreamAfterTheEndsBytes() {
        // Given an answer that finds, at the node's end, that the node stopped before the answer's end
        Echo answer = new Echo();
        answer.breakAtEnd = true;

        // When the node's chunks end
        StepVerifier.create(Dispatching.shaped(Flux.just(bytes("a")), answer).map(StreamShapingTest::text))
                // Then the end's bytes are sent, then the failure
                .expectNext("a", "end")
                .expectError(UpstreamFailure.class)
                .verify();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Sends each chunk as it came; a chunk {@code break:X} breaks the answer after sending X. */
    private static final class Echo implements StreamAnswer {

        private UpstreamFailure broke;
        private boolean ended;
        private boolean breakAtEnd;

        @Override
        public byte[] onChunk(byte[] chunk) {
            String text = text(chunk);
            if (text.startsWith("break:")) {
                broke = UpstreamFailure.of("upstream_error_event");
                return bytes(text.substring("break:".length()));
            }
            return chunk;
        }

        @Override
        public byte[] onEnd() {
            ended = true;
            if (breakAtEnd) {
                broke = UpstreamFailure.of("upstream_incomplete");
            }
            return bytes("end");
        }

        @Override
        public UpstreamFailure brokeOff() {
            return broke;
        }

        @Override
        public byte[] onFailure(String message) {
            return new byte[0];
        }

        @Override
        public byte[] close() {
            return new byte[0];
        }

        @Override
        public Transcript transcript() {
            return null;
        }

        @Override
        public boolean failed() {
            return broke != null;
        }

        @Override
        public int inputTokens() {
            return 0;
        }

        @Override
        public int outputTokens() {
            return 0;
        }
    }
}
