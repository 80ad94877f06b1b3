package dev.zerolayer.platform.events;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.topics.TopicSpec;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.springframework.messaging.Message;

/**
 * Hands each record of a batch on as its event, in order; a record that does not decode, or whose handling throws, is
 * refused alone (counted, logged, dead-lettered) and the batch goes on, so no record of it is applied twice.
 */
public final class EventBatch {

    private EventBatch() {
    }

    /**
     * @param from the topic the batch came from; its records decode to the topic's event type
     * @return how many records of the batch were applied
     */
    public static <T extends Event> int forEach(Message<List<byte[]>> batch, TopicSpec<T> from, EventReader reader,
            DeadLetters deadLetters, Consumer<T> apply) {
        return forEach(batch, from, reader, deadLetters, record -> false, apply);
    }

    /**
     * As {@link #forEach(Message, TopicSpec, EventReader, DeadLetters, Consumer)}, passing over, undecoded, the records
     * {@code passOver} takes care of from their key and position alone.
     */
    public static <T extends Event> int forEach(Message<List<byte[]>> batch, TopicSpec<T> from, EventReader reader,
            DeadLetters deadLetters, Predicate<InboundRecord> passOver, Consumer<T> apply) {
        int applied = 0;
        for (InboundRecord record : InboundRecord.of(batch)) {
            if (passOver.test(record)) {
                continue;
            }
            T event;
            try {
                event = reader.read(record, from);
            } catch (InvalidEventException e) {
                deadLetters.refuse(reader, record, e.getMessage());
                continue;
            }
            try {
                apply.accept(event);
                applied++;
            } catch (RuntimeException e) {
                // the reason names the failure, never the record's content
                deadLetters.refuse(reader, record, "not applied: " + e.getClass().getSimpleName());
            }
        }
        return applied;
    }
}
