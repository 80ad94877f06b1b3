package dev.zerolayer.complexity.scoring;

import dev.zerolayer.platform.web.ApiException;

/** A request body refused by a check; the message starts with the offending field (e.g. {@code items[2].messages}). */
public class InvalidInputException extends ApiException {

    public InvalidInputException(String message) {
        super(400, "invalid_request_error", message);
    }
}
