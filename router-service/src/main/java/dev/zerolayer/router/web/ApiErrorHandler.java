package dev.zerolayer.router.web;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
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
 * Errors that escape the handlers (unknown path 404, wrong method 405, framework rejections, anything unexpected)
 * answered in the API's own error shape (OpenAI's on the OpenAI paths, else Anthropic's), never with a stack trace.
 */
@Component
@Order(-2)
public class ApiErrorHandler implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(error);
        }
        String path = exchange.getRequest().getPath().value();
        ClientApi api = ClientApi.forPath(path);
        if (path.startsWith("/v1/models") && !ModelsController.anthropicClient(exchange.getRequest().getHeaders())) {
            api = ClientApi.OPENAI;
        }
        int status;
        String type;
        String message;
        if (error instanceof ApiException apiError) {
            status = apiError.status();
            type = apiError.type();
            message = apiError.getMessage();
        } else if (error instanceof ResponseStatusException statusError) {
            status = statusError.getStatusCode().value();
            type = switch (status) {
                case 404 -> "not_found_error";
                case 405 -> "invalid_request_error";
                case 413 -> "request_too_large";
                case 415 -> "invalid_request_error";
                default -> status >= 500 ? "api_error" : "invalid_request_error";
            };
            HttpStatus known = HttpStatus.resolve(status);
            message = status == 404 ? "not found: " + exchange.getRequest().getMethod() + " " + path
                    : known == null ? "request failed" : known.getReasonPhrase();
        } else {
            log.error("unexpected error on {}: {}", path, error.toString());
            status = 500;
            type = "api_error";
            message = "internal error";
        }
        response.setStatusCode(HttpStatusCode.valueOf(status));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        if (!response.getHeaders().containsHeader(ZeroLayerHeaders.TRACE_ID)) {
            response.getHeaders().set(ZeroLayerHeaders.TRACE_ID, dev.zerolayer.contracts.event.EventChecks.newEventId().replace("-", ""));
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(api.errorBody(type, message))));
    }
}
