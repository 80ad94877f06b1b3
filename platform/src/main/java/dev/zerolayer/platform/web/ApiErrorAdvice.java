package dev.zerolayer.platform.web;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Whatever a controller throws is answered by the service's {@link ApiErrorWebHandler}, as every other error is. */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ApiErrorAdvice {

    private final ApiErrorWebHandler errors;

    public ApiErrorAdvice(ApiErrorWebHandler errors) {
        this.errors = errors;
    }

    @ExceptionHandler(Exception.class)
    public Mono<Void> handle(Exception error, ServerWebExchange exchange) {
        return errors.handle(exchange, error);
    }
}
