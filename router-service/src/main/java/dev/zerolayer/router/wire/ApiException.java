package dev.zerolayer.router.wire;

/**
 * A request that ends in an API error: HTTP status, the API's error type and a message naming no prompt text; the
 * platform's error handler answers it, in the shape of the client's API.
 */
public class ApiException extends dev.zerolayer.platform.web.ApiException {

    public ApiException(int status, String type, String message) {
        super(status, type, message);
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
}
