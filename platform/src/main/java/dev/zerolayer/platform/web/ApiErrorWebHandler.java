package dev.zerolayer.platform.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Every error of a service's HTTP API, thrown by a handler or raised by the framework (404 no route, 405, 406, 415, 400
 * unreadable, 413 too large), answered with its status as an {@link ApiError}; anything unexpected is a logged 500
 * {@code api_error} with a generic message, never a stack trace. Ordered ahead of Spring Boot's default error handler.
 */
public class ApiErrorWebHandler implements WebExceptionHandler, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorWebHandler.class);

    /** Ahead of Spring Boot's {@code ErrorWebExceptionHandler} (-1) and WebFlux's status handler (0). */
    public static final int ORDER = -2;

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(error);
        }
        if (error instanceof ErrorResponse framework) {
            response.getHeaders().addAll(framework.getHeaders());
        }
        if (error instanceof ApiException refused && refused.retryAfterSeconds() >= 0) {
            response.getHeaders().set("Retry-After", Long.toString(refused.retryAfterSeconds()));
        }
        return write(exchange, resolve(exchange.getRequest(), error));
    }

    /** The API error an exception answers with. */
    public ApiError resolve(ServerHttpRequest request, Throwable error) {
        if (error instanceof ApiException refused) {
            return refused.toError();
        }
        if (tooLarge(error)) {
            return ApiError.of(413, "request body is too large");
        }
        if (error instanceof ServerWebInputException input && input.getMethodParameter() != null
                && input.getMethodParameter().hasParameterAnnotation(RequestBody.class)) {
            return ApiError.of(400, "request body could not be read");
        }
        if (error instanceof ResponseStatusException framework) {
            return framework(request, framework.getStatusCode().value(), framework, framework.getReason());
        }
        if (error instanceof ErrorResponse framework) {
            return framework(request, framework.getStatusCode().value(), error, framework.getBody().getDetail());
        }
        StackTraceElement[] trace = error.getStackTrace();
        // the class and where, never the message: it may quote a request's text
        log.error("unexpected {} on {} {}{}", error.getClass().getName(), request.getMethod(), request.getPath().value(),
                trace.length == 0 ? "" : " at " + trace[0]);
        return ApiError.of(500, "internal error");
    }

    /** Writes the error with its status as JSON; a subclass may change the body or add headers. */
    protected Mono<Void> write(ServerWebExchange exchange, ApiError error) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatusCode.valueOf(error.status()));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        byte[] body = body(exchange, error);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    /** The error's body: Anthropic's shape. */
    protected byte[] body(ServerWebExchange exchange, ApiError error) {
        return error.bytes();
    }

    private static ApiError framework(ServerHttpRequest request, int status, Throwable error, String reason) {
        String target = request.getMethod() + " " + request.getPath().value();
        String message;
        if (error instanceof MethodNotAllowedException) {
            message = "method not allowed: " + target;
        } else if (error instanceof UnsupportedMediaTypeStatusException unsupported) {
            message = unsupported.getContentType() == null ? "Content-Type is missing or not supported here"
                    : "Content-Type " + unsupported.getContentType() + " is not supported here";
        } else if (error instanceof NotAcceptableStatusException) {
            message = "no response type matches the Accept header";
        } else if (status == 404) {
            message = "not found: " + target;
        } else if (status == 413) {
            message = "request body is too large";
        } else {
            message = status >= 500 || reason == null || reason.isBlank() ? reasonPhrase(status) : reason;
        }
        return ApiError.of(status, message);
    }

    private static String reasonPhrase(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "request failed" : known.getReasonPhrase();
    }

    private static boolean tooLarge(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof DataBufferLimitException) {
                return true;
            }
        }
        return false;
    }
}
