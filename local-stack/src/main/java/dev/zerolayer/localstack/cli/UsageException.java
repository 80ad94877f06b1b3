package dev.zerolayer.localstack.cli;

/** The command line cannot be understood: the message says what is wrong, the launcher exits 64 with the usage. */
public class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
