package dev.zerolayer.router.wire;

/** A request that ends in an API error: HTTP status, the API's error type and a message naming no prompt text. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String type;

    public ApiException(int status, String type, String message) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
    }

    public static ApiException invalid(String message) {
        return new ApiException(400, "invalid_request_error", message);
    }

    public static ApiException overloaded(String message) {
        return new ApiException(529, "overloaded_error", message);
    }

    public static ApiException timeout(String message) {
        return new ApiException(504, "timeout_error", message);
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }
}
