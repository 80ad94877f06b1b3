package dev.zerolayer.router.web;

import dev.zerolayer.router.api.GatewayHandler;
import dev.zerolayer.router.warmup.WarmUp;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Maps the client API paths to the gateway handler (POST, GET / DELETE of a stored Responses answer, GET of its input
 * items; anything else falls to the API-shaped 404/405), then the warm-up's while it runs.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayRoutes {

    @Bean
    RouterFunction<ServerResponse> clientApiRoutes(GatewayHandler handler, WarmUp warmUp) {
        return RouterFunctions.route()
                .POST("/v1/messages/count_tokens", handler::countTokens)
                .POST("/v1/messages", handler::messages)
                .POST("/v1/chat/completions", handler::chatCompletions)
                .POST("/v1/responses", handler::responses)
                .GET("/v1/responses/{id}", handler::storedResponse)
                .GET("/v1/responses/{id}/input_items", handler::responseInputItems)
                .DELETE("/v1/responses/{id}", handler::deleteResponse)
                .POST("/v1/completions", handler::completions)
                .POST("/v1/route/explain", handler::explain)
                // matched after the client APIs, and only while the warm-up runs
                .add(warmUp.routes())
                .build();
    }
}
