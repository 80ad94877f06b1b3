package dev.zerolayer.console.admin;

import dev.zerolayer.platform.web.ApiException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;

/**
 * Passes the console's admin actions to the service that owns them (fallback-service for the policy, the simulator for
 * faults) with the caller's own {@code Authorization} and {@code If-Match}: the owner checks the admin token, and its
 * answer, error body, ETag and Retry-After included, comes back unchanged; an owner that cannot be reached is a 502 in the API's shape.
 */
public final class AdminProxy {

    private final WebClient client;
    private final Duration timeout;

    public AdminProxy(WebClient.Builder builder, Duration timeout) {
        this.client = builder.build();
        this.timeout = timeout;
    }

    /** Sends one call and answers with the owner's status, content type, ETag and body. */
    public Mono<ResponseEntity<byte[]>> forward(HttpMethod method, URI target, HttpHeaders incoming, byte[] body) {
        WebClient.RequestBodySpec request = client.method(method).uri(target).headers(headers -> {
            copy(incoming, headers, HttpHeaders.AUTHORIZATION);
            copy(incoming, headers, HttpHeaders.IF_MATCH);
            copy(incoming, headers, HttpHeaders.ACCEPT);
        });
        WebClient.RequestHeadersSpec<?> ready = body == null ? request
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
        return ready.exchangeToMono(response -> response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0])
                        .map(bytes -> {
                            ResponseEntity.BodyBuilder out = ResponseEntity.status(response.statusCode());
                            response.headers().contentType().ifPresent(out::contentType);
                            response.headers().header(HttpHeaders.ETAG).stream().findFirst()
                                    .ifPresent(etag -> out.header(HttpHeaders.ETAG, etag));
                            // a replica that does not lead refuses a write for now: the caller may try again
                            response.headers().header(HttpHeaders.RETRY_AFTER).stream().findFirst()
                                    .ifPresent(after -> out.header(HttpHeaders.RETRY_AFTER, after));
                            return out.body(bytes);
                        }))
                .timeout(timeout)
                .onErrorMap(TimeoutException.class, e -> new ApiException(504, "api_error",
                        target.getHost() + ":" + target.getPort() + " did not answer within " + timeout.toMillis()
                                + " ms"))
                .onErrorMap(WebClientRequestException.class, e -> new ApiException(502, "api_error",
                        "cannot reach " + target.getHost() + ":" + target.getPort() + " (" + e.getMostSpecificCause()
                                .getClass().getSimpleName() + ")"));
    }

    private static void copy(HttpHeaders from, HttpHeaders to, String name) {
        String value = from.getFirst(name);
        if (value != null) {
            to.set(name, value);
        }
    }
}
