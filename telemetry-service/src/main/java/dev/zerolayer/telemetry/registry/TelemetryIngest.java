package dev.zerolayer.telemetry.registry;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.PoisonEventException;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;

/**
 * Reads {@code telemetry.samples.v1}: validated registrations register nodes (restoring their warm-up history from the
 * last published health record), samples of registered nodes stamped within the allowed skew of their record's
 * timestamp feed their health machine;
 * everything else is counted and dead-lettered without touching any node's state.
 */
public class TelemetryIngest implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final RegistrationValidator validator;
    private final HealthTracker tracker;
    private final CompactedView<FallbackPolicy> policy;
    private final CompactedView<NodeHealth> lastPublished;
    private final Clock clock;
    private final Duration maxSkew;

    public TelemetryIngest(EventReader reader, RegistrationValidator validator, HealthTracker tracker,
            CompactedView<FallbackPolicy> policy, CompactedView<NodeHealth> lastPublished, Clock clock,
            Duration maxSkew) {
        this.reader = reader;
        this.validator = validator;
        this.tracker = tracker;
        this.policy = policy;
        this.lastPublished = lastPublished;
        this.clock = clock;
        this.maxSkew = maxSkew;
    }

    @Override
    public void accept(Message<byte[]> message) {
        NodeTelemetry telemetry = reader.read(message, NodeTelemetry.class);
        if (telemetry instanceof NodeRegistration registration) {
            register(message, registration);
        } else if (telemetry instanceof TelemetrySample sample) {
            sample(message, sample);
        }
    }

    /** Registers a node from the static inventory or another trusted source, validated like any other. */
    public Optional<String> register(NodeRegistration registration) {
        Optional<String> problem = validator.problem(registration, knownTiers(), tracker.registration(
                registration.nodeId()));
        if (problem.isEmpty()) {
            tracker.register(registration, restoredWarmups(registration.nodeId()));
        }
        return problem;
    }

    private void register(Message<byte[]> message, NodeRegistration registration) {
        register(registration).ifPresent(problem -> reject(message, "registration refused: " + problem));
    }

    private void sample(Message<byte[]> message, TelemetrySample sample) {
        // Skew is measured against the record's own timestamp, so a consumer that fell behind does not reject what
        // the node stamped correctly; without one, against this service's clock.
        Object recordTime = message.getHeaders().get(KafkaHeaders.RECEIVED_TIMESTAMP);
        java.time.Instant reference = recordTime instanceof Long millis ? java.time.Instant.ofEpochMilli(millis)
                : clock.instant();
        Duration skew = Duration.between(reference, sample.occurredAt()).abs();
        if (skew.compareTo(maxSkew) > 0) {
            reject(message, "sample timestamp out of range");
            return;
        }
        if (tracker.registration(sample.nodeId()).isEmpty()) {
            lastPublished.get(sample.nodeId()).ifPresent(last -> register(last.registration()));
        }
        if (!tracker.onSample(sample)) {
            reject(message, "sample from unregistered node");
        }
    }

    private List<Long> restoredWarmups(String nodeId) {
        return lastPublished.get(nodeId).map(NodeHealth::warmupDurationsMs).orElse(List.of());
    }

    private List<String> knownTiers() {
        PolicyDocument document = policy.get(FallbackPolicy.KEY).map(FallbackPolicy::document)
                .orElseGet(PolicyDocument::defaults);
        return document.tiers().stream().map(TierSpec::name).toList();
    }

    private void reject(Message<byte[]> message, String reason) {
        reader.reject(message, String.valueOf(message.getHeaders().get(KafkaHeaders.RECEIVED_TOPIC)), reason);
        throw new PoisonEventException(reason, null);
    }
}
