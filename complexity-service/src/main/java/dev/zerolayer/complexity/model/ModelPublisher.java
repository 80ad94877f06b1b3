package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.platform.events.EventPublisher;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Publishes a model on {@code complexity.model.v1} and confirms it only once the service's own view has read it back. */
public class ModelPublisher {

    /** The output binding (destination in application.yml). */
    public static final String BINDING = "complexityModel-out-0";

    /** How a publication ended. */
    public enum Outcome {
        /** On the topic and read back: it is the active model. */
        CONFIRMED,
        /** Not handed to the broker (topics not verified yet, or the producer refused it). */
        NOT_SENT,
        /** Handed to the broker but not read back in time: it may still become active. */
        UNCONFIRMED
    }

    private final EventPublisher events;
    private final Map<String, CompletableFuture<ComplexityModel>> pending = new ConcurrentHashMap<>();

    public ModelPublisher(EventPublisher events, ModelView view) {
        this.events = events;
        view.onUpdate(model -> {
            CompletableFuture<ComplexityModel> waiting = pending.remove(model.eventId());
            if (waiting != null) {
                waiting.complete(model);
            }
        });
    }

    public Outcome publish(ComplexityModel model, Duration timeout) {
        CompletableFuture<ComplexityModel> seen = new CompletableFuture<>();
        pending.put(model.eventId(), seen);
        try {
            if (!events.publish(BINDING, model)) {
                return Outcome.NOT_SENT;
            }
            seen.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return Outcome.CONFIRMED;
        } catch (TimeoutException | ExecutionException e) {
            return Outcome.UNCONFIRMED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.UNCONFIRMED;
        } finally {
            pending.remove(model.eventId());
        }
    }
}
