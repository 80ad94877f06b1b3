package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.leader.TermWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes a model on {@code complexity.model.v1} in a transaction of the leader's term and confirms it only once the
 * service's own view has read it back.
 */
public class ModelPublisher {

    /** How a publication ended. */
    public enum Outcome {
        /** On the topic and read back: it is the active model. */
        CONFIRMED,
        /** Not written: no term open here (a follower, or a term still starting), fenced, or refused by the broker. */
        NOT_SENT,
        /** Handed to the broker but not read back in time: it may still become active. */
        UNCONFIRMED
    }

    private final TermWriter writer;
    private final Map<String, CompletableFuture<ComplexityModel>> pending = new ConcurrentHashMap<>();

    public ModelPublisher(TermWriter writer, ModelView view) {
        this.writer = writer;
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
            if (writer.publish(Topics.COMPLEXITY_MODEL, model) != TermWriter.Outcome.COMMITTED) {
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
