package dev.zerolayer.platform.web;

import java.util.List;

/**
 * A request refused with an HTTP status, an API error type and a message naming no prompt text (and optionally the
 * offending fields); every service answers it as its {@link ApiError}, without a stack trace.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String type;
    private final List<ApiError.FieldError> errors;
    private final long retryAfterSeconds;

    public ApiException(int status, String type, String message, List<ApiError.FieldError> errors) {
        this(status, type, message, errors, -1);
    }

    private ApiException(int status, String type, String message, List<ApiError.FieldError> errors,
            long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.errors = errors == null ? List.of() : List.copyOf(errors);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A refusal the caller may try again after this many seconds (sent as {@code Retry-After}). */
    public static ApiException retryAfter(int status, String message, long seconds) {
        return new ApiException(status, ApiError.typeFor(status), message, List.of(), Math.max(0, seconds));
    }

    /** Seconds to wait before trying again ({@code Retry-After}), or -1 when the refusal is final. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public ApiException(int status, String type, String message) {
        this(status, type, message, List.of());
    }

    /** A refusal of the type its status names ({@link ApiError#typeFor(int)}). */
    public ApiException(int status, String message) {
        this(status, ApiError.typeFor(status), message);
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public List<ApiError.FieldError> errors() {
        return errors;
    }

    public ApiError toError() {
        return new ApiError(status, type, getMessage(), errors);
    }
}
