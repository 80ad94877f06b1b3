package dev.zerolayer.simulator.node;

/**
 * A request the node answers with an error in the API's own shape: HTTP status, error type, a message that names
 * fields but never quotes prompt text, and (OpenAI) the offending parameter and a code.
 */
public final class ApiException extends RuntimeException {

    private final int status;
    private final String type;
    private final String param;
    private final String code;

    public ApiException(int status, String type, String message, String param, String code) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    public static ApiException invalid(String message, String param) {
        return new ApiException(400, "invalid_request_error", message, param, null);
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String param() {
        return param;
    }

    public String code() {
        return code;
    }
}
