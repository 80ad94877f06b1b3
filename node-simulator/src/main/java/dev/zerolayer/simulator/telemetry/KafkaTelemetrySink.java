package dev.zerolayer.simulator.telemetry;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
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
 * Publishes registrations and samples through the {@code nodeTelemetry-out-0} binding ({@code telemetry.samples.v1}),
 * keyed by node id, once the topics are verified; before that, and on failure, nothing is sent and the caller retries.
 */
public class KafkaTelemetrySink implements TelemetrySink {

    static final String BINDING = "nodeTelemetry-out-0";
    private static final Logger log = LoggerFactory.getLogger(KafkaTelemetrySink.class);

    private final StreamBridge bridge;
    private final TopicGuard guard;
    private final Counter published;
    private final Counter failed;

    public KafkaTelemetrySink(StreamBridge bridge, TopicGuard guard, MeterRegistry meters) {
        this.bridge = bridge;
        this.guard = guard;
        this.published = Counter.builder("zerolayer.simulator.telemetry.published").register(meters);
        this.failed = Counter.builder("zerolayer.simulator.telemetry.publish.failures").register(meters);
    }

    @Override
    public boolean send(NodeTelemetry event) {
        if (!guard.ready()) {
            return false;
        }
        try {
            boolean sent = bridge.send(BINDING, MessageBuilder.withPayload(EventCodec.encode(event))
                    .setHeader(KafkaHeaders.KEY, event.key().getBytes(StandardCharsets.UTF_8))
                    .setHeader("contentType", MimeTypeUtils.APPLICATION_JSON_VALUE)
                    .build());
            (sent ? published : failed).increment();
            return sent;
        } catch (RuntimeException e) {
            failed.increment();
            log.warn("could not publish telemetry of node {}: {}", event.nodeId(), e.getMessage());
            return false;
        }
    }
}
