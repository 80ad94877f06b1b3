package dev.zerolayer.platform.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/** A batch message as a binding in batch mode delivers it: the payloads, and each record's headers as lists. */
public final class BatchMessages {

    /** One record of a batch: its key and its bytes. */
    public record Rec(String key, byte[] payload) {
    }

    private BatchMessages() {
    }

    /** The records of one topic's partition 0, at offsets 0, 1, 2, … in the order given. */
    public static Message<List<byte[]>> batch(String topic, Rec... records) {
        List<byte[]> payloads = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        List<Object> topics = new ArrayList<>();
        List<Object> partitions = new ArrayList<>();
        List<Object> offsets = new ArrayList<>();
        for (int i = 0; i < records.length; i++) {
            payloads.add(records[i].payload());
            keys.add(records[i].key().getBytes(StandardCharsets.UTF_8));
            topics.add(topic);
            partitions.add(0);
            offsets.add((long) i);
        }
        return MessageBuilder.withPayload(payloads).setHeader(KafkaHeaders.RECEIVED_KEY, keys)
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, topics).setHeader(KafkaHeaders.RECEIVED_PARTITION, partitions)
                .setHeader(KafkaHeaders.OFFSET, offsets).build();
    }
}
