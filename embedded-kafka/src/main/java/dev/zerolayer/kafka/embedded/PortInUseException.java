package dev.zerolayer.kafka.embedded;

/** A port the caller asked for is already in use: the message names it. */
public class PortInUseException extends RuntimeException {

    private final int port;

    public PortInUseException(int port) {
        super("port " + port + " is already in use");
        this.port = port;
    }

    public int port() {
        return port;
    }
}
