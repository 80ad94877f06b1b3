package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.web.ApiException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
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

/**
 * A leader write that reaches a follower is passed to the leader and its answer returned unchanged; when no leader is
 * known or it cannot be reached, the follower's own handler answers (503 with {@code Retry-After}); a passed request is
 * never passed on again.
 */
public final class LeaderForwarding implements WebFilter {

    /** Set on a request a follower passes on, with the follower's replica id. */
    public static final String FORWARDED_FROM = "x-zerolayer-forwarded-from";
    /** Set on the answer to a passed request, with the replica id of the leader that answered. */
    public static final String ANSWERED_BY = "x-zerolayer-answered-by";

    private static final Logger log = LoggerFactory.getLogger(LeaderForwarding.class);
    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "keep-alive", "transfer-encoding", "te",
            "upgrade", "proxy-connection", "trailer");

    private static final Duration TERM_CHECK = Duration.ofMillis(500);

    private final LeaderWrites writes;
    private final Leadership leadership;
    private final LeaderLocator locator;
    private final WebClient client;
    private final Duration timeout;
    private final MeterRegistry meters;

    public LeaderForwarding(LeaderWrites writes, Leadership leadership, LeaderLocator locator, WebClient client,
            Duration timeout, MeterRegistry meters) {
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
        return locator.leader()
                .onErrorResume(e -> {
                    log.info("leader of {} not looked up: {}", leadership.group(), e.toString());
                    return Mono.empty();
                })
                .filter(leader -> !leader.replica().equals(leadership.replica()))
                .flatMap(leader -> forward(exchange, leader))
                .switchIfEmpty(Mono.fromSupplier(() -> {
                    count("no_leader");
                    return false;
                }))
                .flatMap(forwarded -> forwarded ? Mono.<Void>empty() : chain.filter(exchange));
    }

    /** True once the leader's answer is on its way to the client; false when nothing reached the leader. */
    private Mono<Boolean> forward(ServerWebExchange exchange, LeaderAnnouncement leader) {
        ServerHttpRequest request = exchange.getRequest();
        URI target = UriComponentsBuilder.fromUri(leader.url()).replacePath(request.getPath().value())
                .replaceQuery(request.getURI().getRawQuery()).build(true).toUri();
        return client.method(request.getMethod()).uri(target)
                .headers(headers -> {
                    request.getHeaders().forEach((name, values) -> {
                        if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                            headers.addAll(name, values);
                        }
                    });
                    headers.set(FORWARDED_FROM, leadership.replica());
                })
                .body(BodyInserters.fromDataBuffers(request.getBody()))
                .exchangeToMono(answer -> {
                    ServerHttpResponse response = exchange.getResponse();
                    response.setStatusCode(answer.statusCode());
                    answer.headers().asHttpHeaders().forEach((name, values) -> {
                        if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                            response.getHeaders().addAll(name, values);
                        }
                    });
                    response.getHeaders().set(ANSWERED_BY, leader.replica());
                    count("forwarded");
                    return response.writeWith(answer.bodyToFlux(DataBuffer.class)).thenReturn(true);
                })
                .or(termMoved(leader))
                .timeout(timeout)
                .onErrorResume(LeaderForwarding::notSent, e -> {
                    count("unreachable");
                    log.info("leader {} of {} at {} not reachable: {}", leader.replica(), leadership.group(),
                            leader.url(), ((WebClientRequestException) e).getMostSpecificCause().toString());
                    return Mono.just(false);
                })
                .onErrorMap(TimeoutException.class, e -> {
                    count("failed");
                    return new ApiException(504, "api_error", "the leader (" + leader.replica() + ") did not answer "
                            + "within " + timeout.toMillis() + " ms; the write may still be applied: read "
                            + writes.what() + " back before sending it again");
                })
                .onErrorMap(WebClientRequestException.class, e -> {
                    count("failed");
                    return new ApiException(502, "api_error", "the leader (" + leader.replica() + ") broke off its "
                            + "answer; the write may have been applied: read " + writes.what() + " back before "
                            + "sending it again");
                });
    }

    /**
     * Fails once the term the write was passed under is over while its answer is awaited (a leader paused past its
     * session holds the request in its socket): this replica leads now, or another leader announced itself. The old
     * leader's writer is fenced from then on, but it may have applied the write before, so the client is told to read
     * back rather than to send again blindly.
     */
    private Mono<Boolean> termMoved(LeaderAnnouncement leader) {
        return Flux.interval(TERM_CHECK, TERM_CHECK)
                .concatMap(tick -> leadership.isLeader() ? Mono.just(true) : locator.leader()
                        .map(now -> now.generation() != leader.generation() || !now.replica().equals(leader.replica()))
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
    private static boolean notSent(Throwable e) {
        if (!(e instanceof WebClientRequestException request)) {
            return false;
        }
        Throwable cause = request.getMostSpecificCause();
        return cause instanceof ConnectException || cause instanceof UnknownHostException;
    }

    private void count(String outcome) {
        Counter.builder("zerolayer.leader.forwarded").description("leader writes a follower received, by outcome")
                .tag("outcome", outcome).register(meters).increment();
    }
}
