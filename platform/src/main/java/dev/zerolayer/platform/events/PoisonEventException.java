package dev.zerolayer.platform.events;

/** A record that can never be processed: the binder sends it to the dead-letter topic without retrying. */
public class PoisonEventException extends RuntimeException {

    public PoisonEventException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
