package dev.zerolayer.platform.replica;

import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/** One publication round of an owned partition: its records, and what to do once they were sent, or could not be. */
public record PublicationRound(List<ProducerRecord<byte[], byte[]>> records, Runnable sent, Runnable notSent) {

    public static final PublicationRound EMPTY = new PublicationRound(List.of(), () -> { });

    /** A round with nothing to do once sent. */
    public PublicationRound(List<ProducerRecord<byte[], byte[]>> records, Runnable notSent) {
        this(records, () -> { }, notSent);
    }
}
