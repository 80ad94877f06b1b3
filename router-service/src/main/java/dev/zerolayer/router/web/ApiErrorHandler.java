package dev.zerolayer.router.web;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.platform.web.ApiError;
import dev.zerolayer.platform.web.ApiErrorWebHandler;
import dev.zerolayer.router.wire.ClientApi;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The platform's error handler (same statuses, types and messages for every error) writing each error in the client
 * API's own shape: OpenAI's on the OpenAI paths (and on {@code /v1/models} for non-Anthropic clients, and on other
 * paths for a bearer-token client without {@code anthropic-version}), else Anthropic's; every error carries a trace id.
 */
@Component
public class ApiErrorHandler extends ApiErrorWebHandler {

    @Override
    protected Mono<Void> write(ServerWebExchange exchange, ApiError error) {
        HttpHeaders headers = exchange.getResponse().getHeaders();
        if (!headers.containsHeader(ZeroLayerHeaders.TRACE_ID)) {
            headers.set(ZeroLayerHeaders.TRACE_ID, EventChecks.newEventId().replace("-", ""));
        }
        return super.write(exchange, error);
    }

    @Override
    protected byte[] body(ServerWebExchange exchange, ApiError error) {
        return clientApi(exchange).errorBody(error.type(), error.message());
    }

    private static ClientApi clientApi(ServerWebExchange exchange) {
        String path = exchange.getRequest().getPath().value();
        HttpHeaders headers = exchange.getRequest().getHeaders();
        if (path.startsWith("/v1/models") && !ModelsController.anthropicClient(headers)) {
            return ClientApi.OPENAI;
        }
        ClientApi api = ClientApi.forPath(path);
        if (api == ClientApi.ANTHROPIC && !path.startsWith("/v1/messages") && !ModelsController.anthropicClient(headers)
                && headers.getFirst(HttpHeaders.AUTHORIZATION) != null && !headers.containsHeader("x-api-key")) {
            return ClientApi.OPENAI; // a path of neither API (/v1/embeddings) from a client that looks like OpenAI's
        }
        return api;
    }
}
