package dev.zerolayer.router.api;

import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.platform.web.PassedHeaders;
import dev.zerolayer.router.answer.ItemHeldElsewhere;
import dev.zerolayer.router.wire.ApiException;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A request naming an item or stored response another router replica holds goes to that replica as the client sent it
 * (a read or a deletion of a stored response too), and its answer
 * (status, headers, body, streamed as it comes) back unchanged; a holder that cannot be reached leaves the item
 * unknown (404). A passed request is marked and never passed on again; it carries a proof that a peer passed it, so
 * the holder does not count it against the key's rate limit a second time.
 */
public final class PeerForwarding {

    /** The header carrying {@link dev.zerolayer.router.answer.ResponseItems#peerProof()}. */
    public static final String PEER_PROOF = "x-zerolayer-peer-proof";

    private static final Logger log = LoggerFactory.getLogger(PeerForwarding.class);

    private final WebClient client;
    private final String replica;
    private final Duration headersWithin;
    private final MeterRegistry meters;
    private final Supplier<Optional<String>> proof;

    /**
     * @param replica       this replica's id, sent to the holder as {@link LeaderForwarding#FORWARDED_FROM}
     * @param proof         a fresh proof that this replica passed the request ({@link #PEER_PROOF}), if it has one
     * @param headersWithin how long the holder may take to start its answer
     */
    public PeerForwarding(WebClient client, String replica, Supplier<Optional<String>> proof, Duration headersWithin,
            MeterRegistry meters) {
        this.client = client;
        this.replica = replica;
        this.proof = proof;
        this.headersWithin = headersWithin;
        this.meters = meters;
    }

    /**
     * The holder's answer to the same request; a {@link Progress.Failed} with the 404 when the holder cannot be reached
     * (its items went with it), 504 when it does not start its answer in time, 502 when the exchange breaks.
     */
    Mono<Reply> forward(ClientCall call, Progress.Read read, ItemHeldElsewhere held) {
        URI target = UriComponentsBuilder.fromUri(held.holder()).replacePath(call.path())
                .replaceQuery(read.arrival().query()).build(true).toUri();
        HttpMethod method = HttpMethod.valueOf(call.http().method().name());
        WebClient.RequestBodySpec relayed = client.method(method).uri(target)
                .headers(headers -> {
                    PassedHeaders.copy(read.arrival().headers(), headers);
                    headers.set(LeaderForwarding.FORWARDED_FROM, replica);
                    headers.remove(PEER_PROOF);
                    proof.get().ifPresent(token -> headers.set(PEER_PROOF, token));
                });
        // a read or a deletion of a stored answer has no body to pass
        return (HttpMethod.POST.equals(method) ? relayed.bodyValue(read.body()) : relayed)
                .retrieve()
                .onStatus(status -> true, response -> Mono.empty()) // every status is the holder's answer
                .toEntityFlux(DataBuffer.class)
                .timeout(headersWithin)
                .flatMap(answer -> relay(read, held, answer))
                .onErrorMap(e -> !(e instanceof Progress.Failed), e -> {
                    String cause = e instanceof WebClientRequestException request
                            ? request.getMostSpecificCause().toString() : e.toString();
                    if (PassedHeaders.neverSent(e)) {
                        count("unreachable");
                        log.info("the replica at {} holding a referenced item was not reached: {}", held.holder(),
                                cause);
                        return new Progress.Failed(read, held.unknown());
                    }
                    count("failed");
                    log.info("the replica at {} holding a referenced item did not answer: {}", held.holder(), cause);
                    return new Progress.Failed(read, e instanceof TimeoutException
                            ? new ApiException(504, "api_error", "the router replica holding a referenced item did "
                                    + "not start its answer within " + headersWithin.toMinutes() + " minutes")
                            : new ApiException(502, "api_error", "the router replica holding a referenced item broke "
                                    + "off; the request may have been served: send it again"));
                });
    }

    /** The holder's answer as it comes; this replica's part of the request (its span) ends here. */
    private Mono<Reply> relay(Progress.Read read, ItemHeldElsewhere held, ResponseEntity<Flux<DataBuffer>> answer) {
        count("forwarded");
        io.micrometer.tracing.Span span = read.arrival().span();
        span.tag("zerolayer.request_id", read.arrival().requestId());
        span.tag("zerolayer.status", "PASSED_TO_HOLDER");
        span.tag("zerolayer.holder", held.holder().toString());
        span.tag("http.response.status_code", Integer.toString(answer.getStatusCode().value()));
        span.end();
        Flux<DataBuffer> body = answer.getBody() == null ? Flux.empty() : answer.getBody();
        io.netty.handler.codec.http.HttpHeaders headers = new DefaultHttpHeaders();
        PassedHeaders.copy(answer.getHeaders(), new HttpHeaders(new Netty4HeadersAdapter(headers)));
        return Mono.just(new Reply(answer.getStatusCode().value(), headers,
                body.map(NettyDataBufferFactory::toByteBuf)));
    }

    private void count(String outcome) {
        meters.counter("zerolayer_router_item_forwards", "outcome", outcome).increment();
    }
}
