package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeTypeUtils;

/** Publishes health records through the {@code nodeHealth-out-0} binding, keyed by node id, counting failures. */
public class KafkaHealthPublisher implements HealthPublisher {

    static final String BINDING = "nodeHealth-out-0";
    private static final Logger log = LoggerFactory.getLogger(KafkaHealthPublisher.class);

    private final StreamBridge bridge;
    private final Counter published;
    private final Counter failed;

    public KafkaHealthPublisher(StreamBridge bridge, MeterRegistry meters) {
        this.bridge = bridge;
        this.published = Counter.builder("zerolayer.telemetry.health.published").register(meters);
        this.failed = Counter.builder("zerolayer.telemetry.health.publish.failures").register(meters);
    }

    @Override
    public boolean publish(NodeHealth health) {
        try {
            boolean sent = bridge.send(BINDING, MessageBuilder.withPayload(EventCodec.encode(health))
                    .setHeader(KafkaHeaders.KEY, health.key().getBytes(StandardCharsets.UTF_8))
                    .setHeader("contentType", MimeTypeUtils.APPLICATION_JSON_VALUE)
                    .build());
            (sent ? published : failed).increment();
            return sent;
        } catch (RuntimeException e) {
            failed.increment();
            log.warn("could not publish health of node {}: {}", health.nodeId(), e.getMessage());
            return false;
        }
    }
}
