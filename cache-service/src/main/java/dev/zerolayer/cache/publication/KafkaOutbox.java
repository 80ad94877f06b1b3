package dev.zerolayer.cache.publication;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.platform.events.EventPublisher;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.KafkaNull;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Events go through platform's {@link EventPublisher}; tombstones (null value, the key only) through the same output
 * binding, once the topics are verified, counted like events in {@code zerolayer_events_published_total{binding}}.
 */
public class KafkaOutbox implements Outbox {

    private static final Logger log = LoggerFactory.getLogger(KafkaOutbox.class);

    private final EventPublisher events;
    private final StreamBridge bridge;
    private final TopicGuard guard;
    private final MeterRegistry meters;

    public KafkaOutbox(EventPublisher events, StreamBridge bridge, TopicGuard guard, MeterRegistry meters) {
        this.events = events;
        this.bridge = bridge;
        this.guard = guard;
        this.meters = meters;
    }

    @Override
    public boolean publish(String binding, Event event) {
        return events.publish(binding, event);
    }

    @Override
    public boolean tombstone(String binding, String key) {
        if (!guard.ready()) {
            return false;
        }
        try {
            boolean sent = bridge.send(binding, MessageBuilder.withPayload(KafkaNull.INSTANCE)
                    .setHeader(KafkaHeaders.KEY, key.getBytes(StandardCharsets.UTF_8)).build());
            count(sent ? "zerolayer.events.published" : "zerolayer.events.publish.failures", binding);
            return sent;
        } catch (RuntimeException e) {
            count("zerolayer.events.publish.failures", binding);
            log.warn("could not publish a tombstone to {}: {}", binding, e.getMessage());
            return false;
        }
    }

    private void count(String name, String binding) {
        Counter.builder(name).tag("binding", binding).register(meters).increment();
    }
}
