package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

/**
 * The compacted view of {@code complexity.model.v1} that also remembers, per partition, the next offset it will read,
 * so the owner can tell when it has read the topic to the end it had at start (poison records count as read).
 */
public class ModelView extends CompactedView<ComplexityModel> {

    private final Map<Integer, Long> nextOffsets = new ConcurrentHashMap<>();

    public ModelView(EventReader reader, Clock clock) {
        super(Topics.COMPLEXITY_MODEL_TOPIC, reader, clock);
    }

    @Override
    public void accept(Message<byte[]> message) {
        try {
            super.accept(message);
        } finally {
            advance(message.getHeaders());
        }
    }

    private void advance(MessageHeaders headers) {
        Object partition = headers.get(KafkaHeaders.RECEIVED_PARTITION);
        Object offset = headers.get(KafkaHeaders.OFFSET);
        if (partition instanceof Number p && offset instanceof Number o) {
            nextOffsets.merge(p.intValue(), o.longValue() + 1, Math::max);
        }
    }

    /** The latest published model, if any record under {@code active} was readable. */
    public Optional<ComplexityModel> published() {
        return get(ComplexityModel.KEY);
    }

    /** The next offset this view will read, per partition read so far (the start-up catch-up's positions). */
    public Map<TopicPartition, Long> positions() {
        Map<TopicPartition, Long> positions = new HashMap<>();
        nextOffsets.forEach((partition, next) -> positions.put(new TopicPartition(topic(), partition), next));
        return positions;
    }
}
