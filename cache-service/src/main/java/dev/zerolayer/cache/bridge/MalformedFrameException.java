package dev.zerolayer.cache.bridge;

/** A ZeroMQ message from a vLLM node that is not a KV-event batch; it is counted and skipped. */
public class MalformedFrameException extends Exception {

    public MalformedFrameException(String message) {
        super(message);
    }
}
