package dev.zerolayer.platform.topics;

/** The broker did not answer in time: retry later. */
public class BrokerUnavailableException extends RuntimeException {

    public BrokerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
