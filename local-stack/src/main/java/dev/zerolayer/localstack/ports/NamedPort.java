package dev.zerolayer.localstack.ports;

/** A TCP port the stack will listen on and who will own it, so a conflict can be reported by name. */
public record NamedPort(int port, String owner) {

    public String inUseMessage() {
        return "port " + port + " is already in use (" + owner + ")";
    }
}
