package dev.zerolayer.cache.publication;

import dev.zerolayer.platform.leader.TermWriter;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A round goes out as one transaction of the leader's term ({@link TermWriter}): readers see all of it or none, and a
 * former leader paused past its term is fenced by the broker rather than writing beside the new one.
 */
public class KafkaOutbox implements Outbox {

    private final TermWriter writer;

    public KafkaOutbox(TermWriter writer) {
        this.writer = writer;
    }

    @Override
    public boolean send(List<Outgoing> round) {
        List<ProducerRecord<byte[], byte[]>> records = round.stream().map(out -> out.event() == null
                ? TermWriter.tombstone(out.topic(), out.key())
                : TermWriter.record(out.topic(), out.event())).toList();
        return writer.write(records) == TermWriter.Outcome.COMMITTED;
    }
}
