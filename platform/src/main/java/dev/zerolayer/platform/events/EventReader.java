package dev.zerolayer.platform.events;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.TopicSpec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;

/**
 * Turns an inbound Kafka message into an event, or counts it in {@code zerolayer_events_rejected_total{topic,reason}}
 * and throws {@link PoisonEventException} so the binder dead-letters it; the log names topic, partition and offset,
 * never the payload.
 */
public final class EventReader {

    private static final Logger log = LoggerFactory.getLogger(EventReader.class);

    private final MeterRegistry registry;

    public EventReader(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Decodes a message of the given topic to the topic's event type, or rejects it (see the class comment). */
    public <T extends Event> T read(Message<?> message, TopicSpec<T> from) {
        String topic = String.valueOf(message.getHeaders().get(KafkaHeaders.RECEIVED_TOPIC));
        try {
            return EventCodec.decode(payload(message), from.eventType(), keyOf(message));
        } catch (InvalidEventException e) {
            reject(message, topic, e.getMessage());
            throw new PoisonEventException(e.getMessage(), e);
        }
    }

    /** Decodes one record of a batch; an {@link InvalidEventException} (with the reason) when it is no valid event. */
    public <T extends Event> T read(InboundRecord record, TopicSpec<T> from) {
        return EventCodec.decode(record.payload(), from.eventType(), record.key());
    }

    /** Counts and logs a record of a batch refused for the given reason (the caller dead-letters it). */
    public void reject(InboundRecord record, String reason) {
        reject(record.topic(), record.partition(), record.offset(), reason);
    }

    /** Counts and logs a record refused for a reason found after decoding (unknown node, stale timestamp, …). */
    public void reject(Message<?> message, String topic, String reason) {
        reject(topic, message.getHeaders().get(KafkaHeaders.RECEIVED_PARTITION),
                message.getHeaders().get(KafkaHeaders.OFFSET), reason);
    }

    private void reject(String topic, Object partition, Object offset, String reason) {
        Counter.builder("zerolayer.events.rejected")
                .description("Inbound records rejected and dead-lettered")
                .tag("topic", topic)
                .tag("reason", category(reason))
                .register(registry)
                .increment();
        log.warn("rejected record from {} partition {} offset {}: {}", topic, partition, offset, reason);
    }

    /** The record key as text, or null when the record had none. */
    public static String keyOf(Message<?> message) {
        return RecordKeys.text(message.getHeaders().get(KafkaHeaders.RECEIVED_KEY));
    }

    /** Whether the record is a tombstone (null value) of a compacted topic. */
    public static boolean isTombstone(Message<?> message) {
        Object payload = message.getPayload();
        return payload == null || payload.getClass().getSimpleName().equals("KafkaNull");
    }

    private static byte[] payload(Message<?> message) {
        Object payload = message.getPayload();
        if (payload instanceof byte[] bytes) {
            return bytes;
        }
        if (payload instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        throw new InvalidEventException("payload is not JSON bytes");
    }

    private static String category(String reason) {
        if (reason == null) {
            return "invalid";
        }
        if (reason.startsWith("malformed") || reason.startsWith("empty") || reason.startsWith("payload")) {
            return "malformed";
        }
        if (reason.startsWith("unsupported schemaVersion")) {
            return "schema_version";
        }
        if (reason.contains("record key")) {
            return "key";
        }
        return "invalid";
    }
}
