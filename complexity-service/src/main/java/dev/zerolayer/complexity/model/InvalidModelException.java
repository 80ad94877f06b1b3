package dev.zerolayer.complexity.model;

/** An uploaded model refused by a check; the message starts with the offending field. */
public class InvalidModelException extends RuntimeException {

    public InvalidModelException(String message) {
        super(message, null, false, false);
    }
}
