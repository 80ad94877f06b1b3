package dev.zerolayer.complexity.model;

import dev.zerolayer.platform.web.ApiException;

/** An uploaded model refused by a check; the message starts with the offending field. */
public class InvalidModelException extends ApiException {

    public InvalidModelException(String message) {
        super(400, "invalid_request_error", message);
    }
}
