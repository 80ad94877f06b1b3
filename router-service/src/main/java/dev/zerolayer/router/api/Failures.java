package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.router.dispatch.UpstreamFailure;
import dev.zerolayer.platform.web.ApiError;
import dev.zerolayer.platform.web.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The one place a gateway failure becomes what the client sees: the HTTP status and type (the platform's
 * {@link ApiError}), the decision status it records, and the body in the client API's shape (a node's own refusal of
 * the request passed on as its status and message).
 */
final class Failures {

    private static final Logger log = LoggerFactory.getLogger(Failures.class);

    private Failures() {
    }

    /** An error as the client sees it. */
    record Failure(int http, DecisionStatus status, byte[] body) {
    }

    static Failure of(Throwable e, ClientApi api) {
        if (e instanceof UpstreamFailure upstream && !upstream.bypassable()) {
            return new Failure(upstream.status(), DecisionStatus.REJECTED, nodeError(upstream, api));
        }
        ApiError error;
        if (e instanceof UpstreamFailure) {
            error = ApiError.of(529, "no node could serve the request");
        } else if (e instanceof ApiException refused) {
            error = refused.toError();
        } else {
            // the class only: an exception's message may quote the request
            log.error("unexpected failure handling a request: {}", e.getClass().getName());
            error = ApiError.of(500, "internal error");
        }
        DecisionStatus status = switch (error.status()) {
            case 504 -> DecisionStatus.TIMEOUT;
            default -> error.status() >= 500 ? DecisionStatus.OVERLOADED : DecisionStatus.REJECTED;
        };
        String param = null;
        String code = null;
        if (e instanceof dev.zerolayer.router.wire.ApiException named) {
            // OpenAI's param and code, where the router names them
            param = named.param();
            code = named.code();
        }
        return new Failure(error.status(), status, api.errorBody(error.type(), error.message(), param, code));
    }

    /**
     * A node's refusal of the request (a 4xx) in the client's API: its own body when the node speaks an API of the
     * same error shape, else its type and message in the client's shape.
     */
    static byte[] nodeError(UpstreamFailure upstream, ClientApi api) {
        byte[] body = upstream.body();
        JsonNode parsed = null;
        try {
            parsed = body.length == 0 ? null : EventCodec.mapper().readTree(body);
        } catch (JacksonException e) {
            // not JSON: described below
        }
        JsonNode error = parsed == null ? null : parsed.get("error");
        if (error == null || !error.isObject()) {
            return api.errorBody("invalid_request_error", "the upstream node rejected the request (HTTP "
                    + upstream.status() + ")");
        }
        boolean anthropicShaped = "error".equals(parsed.path("type").asString(""));
        if (anthropicShaped == api.openAiShaped()) {
            return api.errorBody(error.path("type").asString("invalid_request_error"),
                    error.path("message").asString("the upstream node rejected the request"));
        }
        return body;
    }
}
