package dev.zerolayer.complexity.web;

import dev.zerolayer.platform.web.ApiException;

/** A request body over the configured limit: 413. */
public class BodyTooLargeException extends ApiException {

    public BodyTooLargeException(long limit) {
        super(413, "request_too_large", "body: larger than the limit of " + limit + " bytes");
    }
}
