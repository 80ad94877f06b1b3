package dev.zerolayer.contracts.event;

/** An event that cannot be accepted: bad JSON, a missing key or field, an out-of-range value or an unknown schema version. */
public class InvalidEventException extends RuntimeException {

    public InvalidEventException(String reason) {
        super(reason);
    }

    public InvalidEventException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
