package dev.zerolayer.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.platform.admin.AdminDeniedException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

class ApiErrorWebHandlerTest {

    private static AnnotationConfigApplicationContext context;
    private static WebTestClient client;

    private final ApiErrorWebHandler handler = new ApiErrorWebHandler();

    @BeforeAll
    static void start() {
        context = new AnnotationConfigApplicationContext(Web.class);
        client = WebTestClient.bindToApplicationContext(context).build();
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void errorTypesFollowAnthropicsNamesPerStatus() {
        assertThat(Map.of(400, ApiError.typeFor(400), 401, ApiError.typeFor(401), 403, ApiError.typeFor(403),
                404, ApiError.typeFor(404), 405, ApiError.typeFor(405), 413, ApiError.typeFor(413),
                415, ApiError.typeFor(415), 429, ApiError.typeFor(429), 500, ApiError.typeFor(500),
                529, ApiError.typeFor(529))).isEqualTo(Map.of(400, "invalid_request_error", 401,
                "authentication_error", 403, "permission_error", 404, "not_found_error", 405, "invalid_request_error",
                413, "request_too_large", 415, "invalid_request_error", 429, "rate_limit_error", 500, "api_error",
                529, "overloaded_error"));
    }

    @Test
    void bodyIsAnthropicsShapeInOrderWithFieldErrorsOnlyWhenThereAreSome() {
        assertThat(new String(new ApiError(400, "invalid_request_error", "bad").bytes()))
                .isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}");
        ApiError fields = new ApiError(400, "invalid_request_error", "invalid policy",
                List.of(new ApiError.FieldError("/thresholds/x", "must be at most 1")));
        assertThat(new String(fields.bytes())).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":"
                + "\"invalid_request_error\",\"message\":\"invalid policy\",\"errors\":[{\"field\":\"/thresholds/x\","
                + "\"message\":\"must be at most 1\"}]}}");
    }

    @Test
    void exceptionsMapToTheirStatusTypeAndMessage() {
        MockServerHttpRequest request = MockServerHttpRequest.get("/v1/things/7").build();
        assertThat(handler.resolve(request, new ApiException(412, "invalid_request_error", "stale")))
                .isEqualTo(new ApiError(412, "invalid_request_error", "stale"));
        assertThat(handler.resolve(request, new AdminDeniedException(401, "token required")))
                .isEqualTo(new ApiError(401, "authentication_error", "token required"));
        assertThat(handler.resolve(request, new AdminDeniedException(403, "not valid")))
                .isEqualTo(new ApiError(403, "permission_error", "not valid"));
        assertThat(handler.resolve(request, new ResponseStatusException(HttpStatus.NOT_FOUND)))
                .isEqualTo(new ApiError(404, "not_found_error", "not found: GET /v1/things/7"));
        assertThat(handler.resolve(request, new ServerWebInputException("No request body")))
                .isEqualTo(new ApiError(400, "invalid_request_error", "No request body"));
        assertThat(handler.resolve(request, new ServerWebInputException("Failed to read HTTP message", null,
                new DataBufferLimitException("limit")))).isEqualTo(new ApiError(413, "request_too_large",
                "request body is too large"));
        assertThat(handler.resolve(request, new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "pool x")))
                .isEqualTo(new ApiError(503, "api_error", "Service Unavailable"));
        assertThat(handler.resolve(request, new IllegalStateException("secret prompt text")))
                .isEqualTo(new ApiError(500, "api_error", "internal error"));
    }

    @Test
    void unknownPathIs404AndWrongMethod405InTheApiShape() {
        client.get().uri("/nowhere").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\","
                        + "\"message\":\"not found: GET /nowhere\"}}", true);
        client.delete().uri("/things").exchange()
                .expectStatus().isEqualTo(405)
                .expectHeader().value("Allow",
                        allow -> assertThat(allow.split(",")).containsExactlyInAnyOrder("GET", "POST"))
                .expectBody().jsonPath("$.type").isEqualTo("error")
                .jsonPath("$.error.type").isEqualTo("invalid_request_error")
                .jsonPath("$.error.message").isEqualTo("method not allowed: DELETE /things");
    }

    @Test
    void unreadableUnsupportedAndTooLargeBodiesAre400_415And413() {
        client.post().uri("/things").contentType(MediaType.APPLICATION_JSON).bodyValue("{not json").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error.type").isEqualTo("invalid_request_error")
                .jsonPath("$.error.message").isEqualTo("request body could not be read");
        client.get().uri("/things/x").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error.type").isEqualTo("invalid_request_error");
        client.post().uri("/things").contentType(MediaType.IMAGE_PNG).bodyValue(new byte[] {1, 2}).exchange()
                .expectStatus().isEqualTo(415)
                .expectBody().jsonPath("$.error.type").isEqualTo("invalid_request_error")
                .jsonPath("$.error.message").isEqualTo("Content-Type image/png is not supported here");
        client.post().uri("/things").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\":\"" + "x".repeat(4096) + "\"}").exchange()
                .expectStatus().isEqualTo(413)
                .expectBody().jsonPath("$.error.type").isEqualTo("request_too_large");
        client.get().uri("/things").accept(MediaType.IMAGE_PNG).exchange()
                .expectStatus().isEqualTo(406)
                .expectBody().jsonPath("$.error.type").isEqualTo("invalid_request_error");
    }

    @Test
    void controllerRefusalsAndUnexpectedFailuresAnswerInTheApiShape() {
        client.get().uri("/refused").exchange()
                .expectStatus().isEqualTo(428)
                .expectBody().json("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                        + "\"message\":\"If-Match is required\",\"errors\":[{\"field\":\"If-Match\","
                        + "\"message\":\"missing\"}]}}", true);
        client.get().uri("/busy").exchange()
                .expectStatus().isEqualTo(503)
                .expectHeader().valueEquals("Retry-After", "2")
                .expectBody().json("{\"type\":\"error\",\"error\":{\"type\":\"api_error\","
                        + "\"message\":\"another replica writes\"}}", true);
        client.get().uri("/refused").exchange().expectHeader().doesNotExist("Retry-After");
        client.get().uri("/broken").exchange()
                .expectStatus().isEqualTo(500)
                .expectBody().json("{\"type\":\"error\",\"error\":{\"type\":\"api_error\","
                        + "\"message\":\"internal error\"}}", true);
    }

    record Thing(String name) {
    }

    @RestController
    static class Things {

        @GetMapping(path = "/things", produces = MediaType.APPLICATION_JSON_VALUE)
        Thing get() {
            return new Thing("a");
        }

        @PostMapping(path = "/things", consumes = MediaType.APPLICATION_JSON_VALUE)
        Thing post(@RequestBody Thing thing) {
            return thing;
        }

        @GetMapping("/things/{id}")
        Thing one(@org.springframework.web.bind.annotation.PathVariable int id) {
            return new Thing(Integer.toString(id));
        }

        @GetMapping("/refused")
        Thing refused() {
            throw new ApiException(428, "invalid_request_error", "If-Match is required",
                    List.of(new ApiError.FieldError("If-Match", "missing")));
        }

        @GetMapping("/busy")
        Thing busy() {
            throw ApiException.retryAfter(503, "another replica writes", 2);
        }

        @GetMapping("/broken")
        Thing broken() {
            throw new IllegalStateException("a prompt's text");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebFlux
    static class Web implements WebFluxConfigurer {

        @Override
        public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
            configurer.defaultCodecs().maxInMemorySize(1024);
        }

        @Bean
        Things things() {
            return new Things();
        }

        @Bean
        ApiErrorWebHandler apiErrorWebHandler() {
            return new ApiErrorWebHandler();
        }

        @Bean
        ApiErrorAdvice apiErrorAdvice(ApiErrorWebHandler errors) {
            return new ApiErrorAdvice(errors);
        }
    }
}
