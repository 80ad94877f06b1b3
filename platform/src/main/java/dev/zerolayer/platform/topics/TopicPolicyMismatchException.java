package dev.zerolayer.platform.topics;

/** An existing topic has a cleanup policy other than the catalogue's: a service must not start on it. */
public class TopicPolicyMismatchException extends RuntimeException {

    public TopicPolicyMismatchException(String message) {
        super(message);
    }
}
