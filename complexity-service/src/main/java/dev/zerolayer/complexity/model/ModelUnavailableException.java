package dev.zerolayer.complexity.model;

/** A model change that cannot be made now (the topic is not read to its end yet, or publication failed): 503. */
public class ModelUnavailableException extends RuntimeException {

    public ModelUnavailableException(String message) {
        super(message, null, false, false);
    }
}
