package dev.zerolayer.complexity.model;

import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.admin.AdminGuard.AdminPrincipal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upload at a time, on the replica that leads (a follower answers 503 with {@code Retry-After}): validated against
 * the active model, published, and answered only once read back from the topic; counted in
 * {@code zerolayer_complexity_model_uploads_total{outcome}}.
 */
public class ModelUploads {

    private static final Logger log = LoggerFactory.getLogger(ModelUploads.class);

    /** An accepted upload: the new version, the one it replaced, and its sanity-set AUC. */
    public record Result(String modelVersion, String previousVersion, double sanityAuc, String publishedBy) {
    }

    private final ModelValidator validator;
    private final ModelPublisher publisher;
    private final ActiveModel active;
    private final ModelOwner owner;
    private final Clock clock;
    private final Duration publishTimeout;
    private final MeterRegistry meters;
    private final Leadership leadership;

    public ModelUploads(ModelValidator validator, ModelPublisher publisher, ActiveModel active, ModelOwner owner,
            Clock clock, Duration publishTimeout, MeterRegistry meters, Leadership leadership) {
        this.leadership = leadership;
        this.validator = validator;
        this.publisher = publisher;
        this.active = active;
        this.owner = owner;
        this.clock = clock;
        this.publishTimeout = publishTimeout;
        this.meters = meters;
    }

    public synchronized Result upload(byte[] body, AdminPrincipal principal) {
        leadership.requireLeading("the complexity model");
        if (!owner.ready()) {
            throw new ModelUnavailableException("the complexity model topic is still being read ("
                    + owner.state() + "); try again shortly");
        }
        String previous = active.model().modelVersion();
        ModelValidator.Accepted accepted;
        try {
            accepted = validator.validate(body, previous, clock.instant());
        } catch (InvalidModelException e) {
            count("rejected");
            log.info("complexity model upload by {} rejected: {}", principal.id(), e.getMessage());
            throw e;
        }
        ModelPublisher.Outcome outcome = publisher.publish(accepted.model(), publishTimeout);
        if (outcome != ModelPublisher.Outcome.CONFIRMED) {
            count("unpublished");
            throw new ModelUnavailableException(outcome == ModelPublisher.Outcome.NOT_SENT
                    ? "model " + accepted.model().modelVersion() + " could not be published (broker unavailable); "
                            + "the active model is still " + previous
                    : "model " + accepted.model().modelVersion() + " was sent but not read back within "
                            + publishTimeout.toMillis() + " ms; it may still become active (GET /v1/complexity/model)");
        }
        count("accepted");
        log.info("complexity model {} published by {} (replaces {}, sanity AUC {})",
                accepted.model().modelVersion(), principal.id(), previous, String.format("%.3f", accepted.sanityAuc()));
        return new Result(accepted.model().modelVersion(), previous, accepted.sanityAuc(), principal.id());
    }

    private void count(String outcome) {
        Counter.builder("zerolayer.complexity.model.uploads").tag("outcome", outcome).register(meters).increment();
    }
}
