package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.web.ApiException;
import dev.zerolayer.platform.web.DataBuffers;
import dev.zerolayer.platform.web.PassedHeaders;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A leader write that reaches a follower is passed to the leader and its whole answer returned unchanged; when no
 * leader is known or it cannot be reached, the follower's own handler answers (503 with {@code Retry-After}); a passed
 * request is never passed on again.
 */
public final class LeaderForwarding implements WebFilter {

    /** Set on a request a follower passes on, with the follower's replica id. */
    public static final String FORWARDED_FROM = "x-zerolayer-forwarded-from";
    /** Set on the answer to a passed request, with the replica id of the leader that answered. */
    public static final String ANSWERED_BY = "x-zerolayer-answered-by";

    private static final Logger log = LoggerFactory.getLogger(LeaderForwarding.class);
    private static final Duration TERM_CHECK = Duration.ofMillis(500);
    /** The largest answer passed back (the services' admin answers are a few kB). */
    private static final int MAX_ANSWER = 4 * 1024 * 1024;

    private final LeaderWrites writes;
    private final Leadership leadership;
    private final Supplier<Mono<LeaderAnnouncement>> locator;
    private final WebClient client;
    private final Duration timeout;
    private final MeterRegistry meters;

    /**
     * @param locator the leader now, or empty when none is known ({@link LeaderLocator#leader()})
     */
    public LeaderForwarding(LeaderWrites writes, Leadership leadership, Supplier<Mono<LeaderAnnouncement>> locator,
            WebClient client, Duration timeout, MeterRegistry meters) {
        this.writes = writes;
        this.leadership = leadership;
        this.locator = locator;
        this.client = client;
        this.timeout = timeout;
        this.meters = meters;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (leadership.isLeader() || request.getHeaders().containsHeader(FORWARDED_FROM)
                || !writes.matches(request.getMethod(), request.getPath().pathWithinApplication())) {
            return chain.filter(exchange);
        }
        return locator.get()
                .onErrorResume(e -> {
                    log.info("leader of {} not looked up: {}", leadership.group(), e.toString());
                    return Mono.empty();
                })
                .publishOn(Schedulers.parallel()) // off the Admin client's I/O thread
                .filter(leader -> !leader.replica().equals(leadership.replica()))
                .flatMap(leader -> forward(exchange, leader))
                .switchIfEmpty(Mono.fromSupplier(() -> {
                    count("no_leader");
                    return false;
                }))
                .flatMap(forwarded -> forwarded ? Mono.<Void>empty() : chain.filter(exchange));
    }

    /** The leader's whole answer: nothing reaches the client before it is complete, so a failure can still be told. */
    private record Answer(HttpStatusCode status, HttpHeaders headers, byte[] body) {
    }

    /** True once the leader's answer was sent to the client; false when nothing reached the leader. */
    private Mono<Boolean> forward(ServerWebExchange exchange, LeaderAnnouncement leader) {
        ServerHttpRequest request = exchange.getRequest();
        URI target = UriComponentsBuilder.fromUri(leader.url()).replacePath(request.getPath().value())
                .replaceQuery(request.getURI().getRawQuery()).build(true).toUri();
        Mono<Answer> answer = client.method(request.getMethod()).uri(target)
                .headers(headers -> {
                    PassedHeaders.copy(request.getHeaders(), headers);
                    headers.set(FORWARDED_FROM, leadership.replica());
                })
                .body(BodyInserters.fromDataBuffers(request.getBody()))
                .exchangeToMono(response -> DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_ANSWER)
                        .map(DataBuffers::drain).defaultIfEmpty(new byte[0])
                        .map(body -> new Answer(response.statusCode(), response.headers().asHttpHeaders(), body)));
        return answer
                .or(termMoved(leader))
                .timeout(timeout)
                .map(Optional::of)
                .onErrorResume(PassedHeaders::neverSent, e -> {
                    count("unreachable");
                    log.info("leader {} of {} at {} not reachable: {}", leader.replica(), leadership.group(),
                            leader.url(), ((WebClientRequestException) e).getMostSpecificCause().toString());
                    return Mono.just(Optional.empty());
                })
                .onErrorMap(TimeoutException.class, e -> {
                    count("failed");
                    return new ApiException(504, "api_error", "the leader (" + leader.replica() + ") did not answer "
                            + "within " + timeout.toMillis() + " ms; the write may still be applied: read "
                            + writes.what() + " back before sending it again");
                })
                .onErrorMap(e -> !(e instanceof ApiException), e -> {
                    count("failed");
                    log.info("leader {} of {} broke off its answer: {}", leader.replica(), leadership.group(),
                            e.toString());
                    return new ApiException(502, "api_error", "the leader (" + leader.replica() + ") broke off its "
                            + "answer; the write may have been applied: read " + writes.what() + " back before "
                            + "sending it again");
                })
                .flatMap(got -> got.isEmpty() ? Mono.just(false) : send(exchange, leader, got.get()).thenReturn(true));
    }

    private Mono<Void> send(ServerWebExchange exchange, LeaderAnnouncement leader, Answer answer) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(answer.status());
        PassedHeaders.copy(answer.headers(), response.getHeaders());
        response.getHeaders().set(ANSWERED_BY, leader.replica());
        count("forwarded");
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(answer.body())));
    }

    /**
     * Fails once the term the write was passed under is over while its answer is awaited (a leader paused past its
     * session holds the request in its socket): this replica leads now, or another replica announced itself. The old
     * leader's writer is fenced from then on, but it may have applied the write before, so the client is told to read
     * back rather than to send again blindly.
     */
    private <T> Mono<T> termMoved(LeaderAnnouncement leader) {
        return Flux.interval(TERM_CHECK, TERM_CHECK)
                .onBackpressureDrop() // a lookup slower than the period skips ticks rather than failing
                .concatMap(tick -> leadership.isLeader() ? Mono.just(true) : locator.get()
                        .map(now -> !now.replica().equals(leader.replica()))
                        .onErrorResume(e -> Mono.empty()))
                .filter(Boolean::booleanValue).next()
                .flatMap(moved -> {
                    count("failed");
                    return Mono.error(new ApiException(504, "api_error", "the leader (" + leader.replica() + ") "
                            + "lost its term before it answered; the write may have been applied: read "
                            + writes.what() + " back before sending it again"));
                });
    }

    /** A connection that could not be made: the request never left this replica. */
    private void count(String outcome) {
        Counter.builder("zerolayer.leader.forwarded").description("leader writes a follower received, by outcome")
                .tag("outcome", outcome).register(meters).increment();
    }
}
