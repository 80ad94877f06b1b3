package dev.zerolayer.fallback.web;

/** A request refused with a status and an API error type, answered in the API error shape. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String type;

    public ApiException(int status, String type, String message) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }
}
