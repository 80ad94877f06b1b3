package dev.zerolayer.cache.lookup;

import dev.zerolayer.platform.web.ApiException;

/** A request the cache API refuses with 400; the message names the offending field and never quotes prompt text. */
public class InvalidRequestException extends ApiException {

    public InvalidRequestException(String message) {
        super(400, "invalid_request_error", message);
    }
}
