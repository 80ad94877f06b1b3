package dev.zerolayer.complexity.model;

import dev.zerolayer.platform.web.ApiException;

/** A model change that cannot be made now (the topic is not read to its end yet, or publication failed): 503. */
public class ModelUnavailableException extends ApiException {

    public ModelUnavailableException(String message) {
        super(503, "api_error", message);
    }
}
