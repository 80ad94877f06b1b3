package dev.zerolayer.complexity.web;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Errors no handler answered (unknown path 404, wrong method 405, unsupported media type, anything unexpected) in the
 * API error shape, never with a stack trace; unexpected errors are logged by class only.
 */
@Component
@Order(-2)
public class ErrorPages implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ErrorPages.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(error);
        }
        String path = exchange.getRequest().getPath().value();
        int status;
        String type;
        String message;
        if (error instanceof BodyTooLargeException tooLarge) {
            status = 413;
            type = "request_too_large";
            message = tooLarge.getMessage();
        } else if (error instanceof ResponseStatusException statusError) {
            status = statusError.getStatusCode().value();
            type = status == 404 ? "not_found_error" : status == 413 ? "request_too_large"
                    : status >= 500 ? "api_error" : "invalid_request_error";
            HttpStatus known = HttpStatus.resolve(status);
            message = status == 404 ? "not found: " + exchange.getRequest().getMethod() + " " + path
                    : known == null ? "request failed" : known.getReasonPhrase();
        } else {
            log.error("unexpected error on {}: {}", path, error.getClass().getName());
            status = 500;
            type = "api_error";
            message = "internal error";
        }
        response.setStatusCode(HttpStatusCode.valueOf(status));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        byte[] body = EventCodec.mapper().writeValueAsBytes(
                Map.of("type", "error", "error", Map.of("type", type, "message", message)));
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
