package dev.zerolayer.router.web;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.platform.web.ApiError;
import dev.zerolayer.router.api.ClientCall;
import dev.zerolayer.router.api.ClientEndpoint;
import dev.zerolayer.router.api.GatewayHandler;
import dev.zerolayer.router.warmup.WarmUp;
import dev.zerolayer.router.wire.ClientApi;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.util.UriUtils;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Serves the client API paths on the server's own routes, ahead of WebFlux: POST of each API, GET / DELETE of a stored
 * Responses answer, GET of its input items, then the warm-up's while it runs; any other request (another method on
 * these paths included) goes on to WebFlux, its API-shaped 404/405 and the other endpoints.
 */
@Configuration(proxyBeanMethods = false)
public class ClientApiRoutes {

    private static final Logger log = LoggerFactory.getLogger(ClientApiRoutes.class);

    /** The stored Responses answers' path, an id after it. */
    private static final String STORED = "/v1/responses/";
    private static final String INPUT_ITEMS = "/input_items";

    /** The client APIs' POST endpoints by path. */
    private static final Map<String, ClientEndpoint> POSTS = Arrays.stream(ClientEndpoint.values())
            .collect(Collectors.toUnmodifiableMap(ClientEndpoint::path, endpoint -> endpoint));

    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> clientApiServerRoutes(GatewayHandler gateway,
            WarmUp warmUp) {
        return factory -> factory.addRouteProviders(routes -> routes.route(
                request -> endpoint(request.method(), ClientCall.path(request.uri()), gateway, warmUp) != null,
                (request, response) -> {
                    ClientCall call = ClientCall.of(request, response);
                    Endpoint endpoint = endpoint(request.method(), call.path(), gateway, warmUp);
                    // the warm-up closed between the match and now: its paths are unknown again
                    return endpoint == null ? response.sendNotFound() : Mono.defer(() -> endpoint.serve(call))
                            .onErrorResume(e -> !response.hasSentHeaders(), e -> internalError(call, e));
                }));
    }

    /**
     * What a failure no stage answered gets, in the API's shape, as WebFlux's error handler would answer it (its class
     * and place logged, never its message: it may quote a request's text); once the answer has begun, the connection
     * is closed instead.
     */
    private static Mono<Void> internalError(ClientCall call, Throwable error) {
        StackTraceElement[] trace = error.getStackTrace();
        log.error("unexpected {} on {} {}{}", error.getClass().getName(), call.http().method(), call.path(),
                trace.length == 0 ? "" : " at " + trace[0]);
        ApiError api = ApiError.of(500, "internal error");
        byte[] body = ClientApi.forPath(call.path()).errorBody(api.type(), api.message());
        HttpServerResponse response = call.response();
        response.status(api.status());
        response.responseHeaders().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        response.responseHeaders().set(ZeroLayerHeaders.TRACE_ID, EventChecks.newEventId().replace("-", ""));
        response.responseHeaders().remove(HttpHeaderNames.TRANSFER_ENCODING);
        response.responseHeaders().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response.sendByteArray(Mono.just(body)).then();
    }

    /** A matched request: the chain that serves it. */
    @FunctionalInterface
    private interface Endpoint {
        Mono<Void> serve(ClientCall call);
    }

    /** The endpoint a request names, or null when it names none of these (WebFlux has it then). */
    private static Endpoint endpoint(HttpMethod method, String path, GatewayHandler gateway, WarmUp warmUp) {
        if (path.startsWith(WarmUp.PREFIX + "/")) {
            GatewayHandler warming = warmUp.openGateway();
            if (warming == null || !HttpMethod.POST.equals(method)) {
                return null;
            }
            ClientEndpoint post = POSTS.get(path.substring(WarmUp.PREFIX.length()));
            return post == null ? null : call -> warming.serve(post, call);
        }
        if (HttpMethod.POST.equals(method)) {
            ClientEndpoint post = POSTS.get(path);
            return post == null ? null : call -> gateway.serve(post, call);
        }
        if (!path.startsWith(STORED)) {
            return null;
        }
        String rest = path.substring(STORED.length());
        boolean inputItems = rest.endsWith(INPUT_ITEMS);
        String id = inputItems ? rest.substring(0, rest.length() - INPUT_ITEMS.length()) : rest;
        if (id.isEmpty() || id.indexOf('/') >= 0) {
            return null;
        }
        String decoded = UriUtils.decode(id, StandardCharsets.UTF_8);
        if (HttpMethod.GET.equals(method)) {
            return inputItems ? call -> gateway.responseInputItems(call, decoded)
                    : call -> gateway.storedResponse(call, decoded);
        }
        if (HttpMethod.DELETE.equals(method) && !inputItems) {
            return call -> gateway.deleteResponse(call, decoded);
        }
        return null;
    }
}
