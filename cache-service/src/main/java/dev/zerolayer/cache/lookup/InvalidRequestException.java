package dev.zerolayer.cache.lookup;

/** A request the cache API refuses with 400; the message names the offending field and never quotes prompt text. */
public class InvalidRequestException extends RuntimeException {

    public InvalidRequestException(String message) {
        super(message);
    }
}
