package dev.zerolayer.complexity.web;

/** A request body over the configured limit: 413. */
public class BodyTooLargeException extends RuntimeException {

    public BodyTooLargeException(long limit) {
        super("body: larger than the limit of " + limit + " bytes", null, false, false);
    }
}
