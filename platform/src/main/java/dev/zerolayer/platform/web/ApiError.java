package dev.zerolayer.platform.web;

import dev.zerolayer.contracts.codec.EventCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One refusal of an API call: its HTTP status, error type and message (and, where a document was refused, one entry per
 * offending field), written as {@code {"type":"error","error":{"type","message"[,"errors":[{"field","message"}]]}}}.
 */
public record ApiError(int status, String type, String message, List<FieldError> errors) {

    public ApiError {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    public ApiError(int status, String type, String message) {
        this(status, type, message, List.of());
    }

    /** An error of the type a status names (see {@link #typeFor(int)}). */
    public static ApiError of(int status, String message) {
        return new ApiError(status, typeFor(status), message);
    }

    /**
     * The error type of a status, as Anthropic's API names them: 400 and other 4xx {@code invalid_request_error}, 401
     * {@code authentication_error}, 403 {@code permission_error}, 404 {@code not_found_error}, 413
     * {@code request_too_large}, 429 {@code rate_limit_error}, 529 {@code overloaded_error}, other 5xx
     * {@code api_error}.
     */
    public static String typeFor(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    /** The body, its fields in the documented order. */
    public Map<String, Object> body() {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message);
        if (!errors.isEmpty()) {
            error.put("errors", errors.stream().map(FieldError::body).toList());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "error");
        body.put("error", error);
        return body;
    }

    /** The body of an error of this type and message, without field errors. */
    public static Map<String, Object> body(String type, String message) {
        return new ApiError(0, type, message).body();
    }

    /** The body as compact JSON. */
    public byte[] bytes() {
        return EventCodec.bytes(body());
    }

    /** One offending field of a refused document: where (e.g. a JSON pointer) and what is wrong with it. */
    public record FieldError(String field, String message) {

        Map<String, String> body() {
            Map<String, String> body = new LinkedHashMap<>();
            body.put("field", field);
            body.put("message", message);
            return body;
        }
    }
}
