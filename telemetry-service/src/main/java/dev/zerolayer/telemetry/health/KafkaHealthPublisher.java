package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeTypeUtils;

/**
 * Publishes health records through the {@code nodeHealth-out-0} binding, keyed by node id, once the topics are verified;
 * failures are counted and the record goes out again with the next heartbeat.
 */
public class KafkaHealthPublisher implements HealthPublisher {

    static final String BINDING = "nodeHealth-out-0";
    private static final Logger log = LoggerFactory.getLogger(KafkaHealthPublisher.class);

    private final StreamBridge bridge;
    private final Counter published;
    private final Counter failed;

    private final TopicGuard guard;

    public KafkaHealthPublisher(StreamBridge bridge, TopicGuard guard, MeterRegistry meters) {
        this.bridge = bridge;
        this.guard = guard;
        this.published = Counter.builder("zerolayer.telemetry.health.published").register(meters);
        this.failed = Counter.builder("zerolayer.telemetry.health.publish.failures").register(meters);
    }

    @Override
    public boolean publish(NodeHealth health) {
        if (!guard.ready()) {
            // Before the topics are verified nothing is sent; the next heartbeat publishes the record.
            return false;
        }
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
