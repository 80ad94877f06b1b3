package dev.zerolayer.router.wire;

/**
 * A request that ends in an API error: HTTP status, the API's error type and a message naming no prompt text (and, for
 * OpenAI's shape, the offending parameter and an error code where the API names them); the platform's error handler
 * answers it, in the shape of the client's API.
 */
public class ApiException extends dev.zerolayer.platform.web.ApiException {

    private final String param;
    private final String code;

    public ApiException(int status, String type, String message) {
        this(status, type, message, null, null);
    }

    /**
     * @param param the request parameter at fault (OpenAI's {@code error.param}; null: none)
     * @param code  OpenAI's {@code error.code} (null: none)
     */
    public ApiException(int status, String type, String message, String param, String code) {
        super(status, type, message);
        this.param = param;
        this.code = code;
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

    /** The parameter at fault, or null. */
    public String param() {
        return param;
    }

    /** OpenAI's error code, or null. */
    public String code() {
        return code;
    }
}
