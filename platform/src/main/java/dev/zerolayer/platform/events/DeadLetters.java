package dev.zerolayer.platform.events;

import dev.zerolayer.contracts.topics.Topics;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Dead-letters a record a batch consumer refused (the binder's own dead-lettering works per record only): the original
 * bytes and key on the consumer's dead-letter topic, with the binder's headers {@code x-exception-message} (the
 * reason, never payload text) and {@code x-original-topic}/{@code -partition}/{@code -offset}.
 */
public class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final StreamBridge bridge;
    private final String consumerGroup;

    public DeadLetters(StreamBridge bridge, String consumerGroup) {
        this.bridge = bridge;
        this.consumerGroup = consumerGroup;
    }

    /** Counts and logs the record as rejected by its reader, then dead-letters it ({@link #send}). */
    public boolean refuse(EventReader reader, InboundRecord record, String reason) {
        reader.reject(record, reason);
        return send(record, reason);
    }

    /** Sends the record to {@code <topic>.<group>.dlq}; false (and a log line) when the broker did not take it. */
    public boolean send(InboundRecord record, String reason) {
        MessageBuilder<byte[]> message = MessageBuilder.withPayload(record.payload() == null ? new byte[0]
                : record.payload())
                .setHeader("x-exception-message", utf8(reason))
                .setHeader("x-original-topic", utf8(record.topic()))
                .setHeader("x-original-partition", utf8(Integer.toString(record.partition())))
                .setHeader("x-original-offset", utf8(Long.toString(record.offset())));
        if (record.key() != null) {
            message.setHeader(KafkaHeaders.KEY, utf8(record.key()));
        }
        try {
            return bridge.send(Topics.deadLetterTopic(record.topic(), consumerGroup), message.build());
        } catch (RuntimeException e) {
            log.warn("could not dead-letter {} partition {} offset {}: {}", record.topic(), record.partition(),
                    record.offset(), e.getMessage());
            return false;
        }
    }

    private static byte[] utf8(String text) {
        return String.valueOf(text).getBytes(StandardCharsets.UTF_8);
    }
}
