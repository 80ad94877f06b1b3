package dev.zerolayer.complexity.scoring;

/** A request body refused by a check; the message starts with the offending field (e.g. {@code items[2].messages}). */
public class InvalidInputException extends RuntimeException {

    public InvalidInputException(String message) {
        super(message, null, false, false);
    }
}
