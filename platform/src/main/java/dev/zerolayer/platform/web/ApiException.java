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

    public ApiException(int status, String type, String message, List<ApiError.FieldError> errors) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.errors = errors == null ? List.of() : List.copyOf(errors);
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
