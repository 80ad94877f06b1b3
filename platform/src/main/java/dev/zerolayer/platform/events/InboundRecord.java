package dev.zerolayer.platform.events;

import java.util.ArrayList;
import java.util.List;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

/**
 * One Kafka record of a batch a consumer binding in batch mode delivered: its bytes and where it came from (topic,
 * partition, offset, key, record time in epoch milliseconds, or -1 when the binder gave none).
 */
public record InboundRecord(String topic, int partition, long offset, String key, long timestamp, byte[] payload) {

    /** The records of a batch message ({@code batch-mode: true}, native decoding: the payload is a list of bytes). */
    public static List<InboundRecord> of(Message<List<byte[]>> batch) {
        MessageHeaders headers = batch.getHeaders();
        List<byte[]> payloads = batch.getPayload();
        List<?> topics = list(headers, KafkaHeaders.RECEIVED_TOPIC);
        List<?> partitions = list(headers, KafkaHeaders.RECEIVED_PARTITION);
        List<?> offsets = list(headers, KafkaHeaders.OFFSET);
        List<?> keys = list(headers, KafkaHeaders.RECEIVED_KEY);
        List<?> timestamps = list(headers, KafkaHeaders.RECEIVED_TIMESTAMP);
        List<InboundRecord> records = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            records.add(new InboundRecord(String.valueOf(at(topics, i)), at(partitions, i) instanceof Integer p ? p : -1,
                    at(offsets, i) instanceof Long o ? o : -1L, RecordKeys.text(at(keys, i)),
                    at(timestamps, i) instanceof Long t ? t : -1L, payloads.get(i)));
        }
        return records;
    }

    private static List<?> list(MessageHeaders headers, String name) {
        return headers.get(name) instanceof List<?> values ? values : List.of();
    }

    private static Object at(List<?> values, int index) {
        return index < values.size() ? values.get(index) : null;
    }
}
