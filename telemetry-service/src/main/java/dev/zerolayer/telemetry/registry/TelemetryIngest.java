package dev.zerolayer.telemetry.registry;

import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.InboundRecord;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.telemetry.health.HealthTracker;
import dev.zerolayer.telemetry.restore.PublishedHealth;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.springframework.messaging.Message;

/**
 * Reads this replica's partitions of {@code telemetry.samples.v1} in batches once the earlier node-health records are
 * read back: validated registrations register nodes (a node known before, here or on another replica, is seeded from
 * its last published record), samples of registered nodes stamped within the allowed skew of their record's timestamp
 * feed their health machine; a record of a node keyed to a partition this replica does not own, and everything else
 * invalid, is counted and dead-lettered one by one without touching any node's state or the rest of the batch.
 */
public class TelemetryIngest implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final RegistrationValidator validator;
    private final HealthTracker tracker;
    private final CompactedView<FallbackPolicy> policy;
    private final PublishedHealth lastPublished;
    private final Clock clock;
    private final Duration maxSkew;
    private final Predicate<String> owned;

    /** @param owned whether a node id is keyed to a partition this replica owns now */
    public TelemetryIngest(EventReader reader, DeadLetters deadLetters, RegistrationValidator validator,
            HealthTracker tracker, CompactedView<FallbackPolicy> policy, PublishedHealth lastPublished, Clock clock,
            Duration maxSkew, Predicate<String> owned) {
        this.owned = owned;
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.validator = validator;
        this.tracker = tracker;
        this.policy = policy;
        this.lastPublished = lastPublished;
        this.clock = clock;
        this.maxSkew = maxSkew;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        if (!lastPublished.awaitRestored()) {
            throw new IllegalStateException("stopping before the node-health read-back was done");
        }
        for (InboundRecord record : InboundRecord.of(batch)) {
            apply(record).ifPresent(reason -> deadLetters.refuse(reader, record, reason));
        }
    }

    /** Applies one record; the reason it was refused, if it was. */
    Optional<String> apply(InboundRecord record) {
        NodeTelemetry telemetry;
        try {
            telemetry = reader.read(record, Topics.TELEMETRY_SAMPLES_TOPIC);
        } catch (InvalidEventException e) {
            return Optional.of(e.getMessage());
        }
        if (!owned.test(telemetry.nodeId())) {
            return Optional.of("node id keyed to a partition other than " + record.partition()
                    + " (records of a node must be keyed by its id)");
        }
        if (telemetry instanceof NodeRegistration registration) {
            return register(registration).map(problem -> "registration refused: " + problem);
        }
        if (telemetry instanceof TelemetrySample sample) {
            return sample(record, sample);
        }
        return Optional.of("unsupported telemetry type");
    }

    /** Registers a node from the static inventory or another trusted source, validated like any other. */
    public Optional<String> register(NodeRegistration registration) {
        Optional<String> problem = validator.problem(registration, knownTiers(), tracker.registration(
                registration.nodeId()));
        if (problem.isEmpty()) {
            Optional<NodeHealth> before = tracker.registration(registration.nodeId()).isEmpty()
                    ? lastPublished.lastPublished(registration.nodeId()) : Optional.empty();
            if (before.isPresent()) {
                tracker.restore(registration, before.get());
            } else {
                tracker.register(registration);
            }
        }
        return problem;
    }

    private Optional<String> sample(InboundRecord record, TelemetrySample sample) {
        // Skew is measured against the record's own timestamp, so a consumer that fell behind does not reject what
        // the node stamped correctly; without one, against this service's clock.
        Instant reference = record.timestamp() >= 0 ? Instant.ofEpochMilli(record.timestamp()) : clock.instant();
        if (Duration.between(reference, sample.occurredAt()).abs().compareTo(maxSkew) > 0) {
            return Optional.of("sample timestamp out of range");
        }
        if (tracker.registration(sample.nodeId()).isEmpty()) {
            lastPublished.lastPublished(sample.nodeId()).ifPresent(last -> register(last.registration()));
        }
        if (!tracker.onSample(sample, reference, record.partition() >= 0 ? record.partition()
                : HealthTracker.NO_PARTITION)) {
            return Optional.of("sample from unregistered node");
        }
        return Optional.empty();
    }

    private List<String> knownTiers() {
        PolicyDocument document = policy.get(FallbackPolicy.KEY).map(FallbackPolicy::document)
                .orElseGet(PolicyDocument::defaults);
        return document.tiers().stream().map(TierSpec::name).toList();
    }
}
