package dev.zerolayer.platform.events;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeTypeUtils;

/**
 * Hands an event to an output binding as JSON keyed by the event's key, only once the service's topics are verified;
 * returns false (and counts it in {@code zerolayer_events_publish_failures_total{binding}}) when it could not, so the
 * caller keeps the event and tries again.
 */
public class EventPublisher {

    private static final Logger log = LoggerFactory.getLogger(EventPublisher.class);

    private final StreamBridge bridge;
    private final TopicGuard guard;
    private final MeterRegistry meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public EventPublisher(StreamBridge bridge, TopicGuard guard, MeterRegistry meters) {
        this.bridge = bridge;
        this.guard = guard;
        this.meters = meters;
    }

    public boolean publish(String binding, Event event) {
        return publish(binding, event, java.util.Map.of());
    }

    /** As {@link #publish(String, Event)}, with extra record headers (for example a W3C {@code traceparent}). */
    public boolean publish(String binding, Event event, java.util.Map<String, String> headers) {
        if (!guard.ready()) {
            return false;
        }
        try {
            MessageBuilder<byte[]> message = MessageBuilder.withPayload(EventCodec.encode(event))
                    .setHeader(KafkaHeaders.KEY, event.key().getBytes(StandardCharsets.UTF_8))
                    .setHeader("contentType", MimeTypeUtils.APPLICATION_JSON_VALUE);
            headers.forEach((name, value) -> message.setHeader(name, value.getBytes(StandardCharsets.UTF_8)));
            boolean sent = bridge.send(binding, message.build());
            count(sent ? "zerolayer.events.published" : "zerolayer.events.publish.failures", binding);
            return sent;
        } catch (RuntimeException e) {
            count("zerolayer.events.publish.failures", binding);
            log.warn("could not publish to {} (event {}): {}", binding, event.eventId(), e.getMessage());
            return false;
        }
    }

    private void count(String name, String binding) {
        counters.computeIfAbsent(name + '\n' + binding, k -> Counter.builder(name).tag("binding", binding)
                .register(meters)).increment();
    }
}
