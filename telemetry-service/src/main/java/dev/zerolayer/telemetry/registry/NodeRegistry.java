package dev.zerolayer.telemetry.registry;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.platform.events.EventReader;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Every node that registered on {@code telemetry.samples.v1}, with its latest sample; a sample from a node that never
 * registered is rejected (counted and dead-lettered), and an older sample never replaces a newer one.
 */
public class NodeRegistry implements Consumer<Message<byte[]>> {

    private final EventReader reader;
    private final Map<String, NodeRecord> nodes = new ConcurrentHashMap<>();

    public NodeRegistry(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void accept(Message<byte[]> message) {
        NodeTelemetry telemetry = reader.read(message, NodeTelemetry.class);
        if (telemetry instanceof NodeRegistration registration) {
            nodes.compute(registration.nodeId(), (id, known) ->
                    new NodeRecord(registration, known == null ? null : known.latestSample()));
        } else if (telemetry instanceof TelemetrySample sample) {
            NodeRecord known = nodes.get(sample.nodeId());
            if (known == null) {
                String reason = "sample from unregistered node";
                reader.reject(message, String.valueOf(message.getHeaders().get("kafka_receivedTopic")), reason);
                throw new dev.zerolayer.platform.events.PoisonEventException(reason, null);
            }
            nodes.computeIfPresent(sample.nodeId(), (id, current) -> current.withSample(sample));
        }
    }

    public Optional<NodeRecord> node(String nodeId) {
        return Optional.ofNullable(nodes.get(nodeId));
    }

    public List<NodeRecord> nodes() {
        return nodes.values().stream().sorted(Comparator.comparing(r -> r.registration().nodeId())).toList();
    }

    /** A registered node and its most recent sample (null until the first one). */
    public record NodeRecord(NodeRegistration registration, TelemetrySample latestSample) {

        NodeRecord withSample(TelemetrySample sample) {
            if (latestSample != null && latestSample.occurredAt().isAfter(sample.occurredAt())) {
                return this;
            }
            return new NodeRecord(registration, sample);
        }
    }
}
