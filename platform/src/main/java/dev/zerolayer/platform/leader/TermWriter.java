package dev.zerolayer.platform.leader;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader's writes go out in Kafka transactions under the service's one {@code transactional.id}, registered anew at
 * the start of each term (before the takeover read), so the broker refuses every later write of an earlier term's
 * producer: a replica paused past its term is fenced, and its half-sent transaction is aborted, never read.
 */
public class TermWriter {

    private static final Logger log = LoggerFactory.getLogger(TermWriter.class);

    /** How a term's transaction ended. */
    public enum Outcome {
        /** Committed: readers on {@code read_committed} see every record of it. */
        COMMITTED,
        /** Nothing was sent: no term is open on this replica (it follows, or its term is still starting). */
        NO_TERM,
        /**
         * Another replica registered the same transactional id since: this producer is fenced and closed (see
         * {@link #onLost}); nothing of the write is read.
         */
        FENCED,
        /**
         * Aborted (broker away, refused record): nothing of it is read; the caller may try again (when the producer
         * could not be kept, it is closed as for {@link #FENCED}).
         */
        ABORTED,
        /**
         * The commit did not answer in time: it may still complete. The producer is closed as for {@link #FENCED}, so
         * the term's takeover reads the topics again before anything more is written.
         */
        UNKNOWN
    }

    /** Creates the producer of one term from its settings (a real {@link KafkaProducer} outside tests). */
    @FunctionalInterface
    public interface ProducerFactory {
        Producer<byte[], byte[]> create(Map<String, Object> config);
    }

    private final String transactionalId;
    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final Duration transactionTimeout;
    private final ProducerFactory factory;
    private final MeterRegistry meters;
    /** The open term's producer and generation; swapped, never mutated (a close must not wait for a write). */
    private final AtomicReference<OpenTerm> current = new AtomicReference<>();
    private volatile LongConsumer lost = generation -> { };

    private record OpenTerm(Producer<byte[], byte[]> producer, long generation) {
    }

    /**
     * @param transactionalId    one per service, the same on every replica (the broker fences by it)
     * @param transactionTimeout how long the broker keeps a transaction of a vanished producer open (readers on
     *                           {@code read_committed} wait behind it); a new term aborts it at once
     */
    public TermWriter(String transactionalId, String bootstrapServers, Map<String, ?> clientProperties,
            Duration transactionTimeout, ProducerFactory factory, MeterRegistry meters) {
        this.transactionalId = transactionalId;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
        this.transactionTimeout = transactionTimeout;
        this.factory = factory;
        this.meters = meters;
    }

    /** The writer of a service: transactional id {@code <service>.leader}, the guard's broker and client settings. */
    public static TermWriter of(String service, TopicGuard guard, MeterRegistry meters) {
        return named(service + ".leader", guard, meters);
    }

    /**
     * A writer under a transactional id of its own (one partition's owner, say), with the guard's broker and client
     * settings.
     */
    public static TermWriter named(String transactionalId, TopicGuard guard, MeterRegistry meters) {
        return new TermWriter(transactionalId, guard.bootstrapServers(), guard.clientProperties(),
                Duration.ofSeconds(10), config -> new KafkaProducer<>(config, new ByteArraySerializer(),
                        new ByteArraySerializer()), meters);
    }

    /**
     * Registers the transactional id for term {@code generation}, which fences every earlier producer of it (on any
     * replica) and aborts a transaction one left open; blocks until the broker answered. Nothing to do when the term is
     * open already, or when a later term's writer is. A failure leaves no term open and is thrown, for the takeover to
     * retry.
     */
    public synchronized void open(long generation) {
        OpenTerm now = current.get();
        if (now != null && now.generation() >= generation) {
            return; // open already, or a later term's is (a late step of an earlier term must not close it)
        }
        close();
        Map<String, Object> config = new LinkedHashMap<>(clientProperties);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-" + generation);
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        Producer<byte[], byte[]> next = factory.create(config);
        try {
            next.initTransactions();
        } catch (RuntimeException e) {
            next.close(Duration.ZERO);
            throw e;
        }
        current.set(new OpenTerm(next, generation));
        log.info("{} writes under term {}: earlier producers of it are fenced", transactionalId, generation);
    }

    /**
     * The term ended here: no more writes from this replica until the next {@link #open}. Does not wait for a write
     * under way (it fails, and its transaction is never read).
     */
    public void close() {
        OpenTerm was = current.getAndSet(null);
        if (was != null) {
            log.info("{} closes its writer of term {}", transactionalId, was.generation());
            closeQuietly(was);
        }
    }

    /**
     * Hears the term whose writer a write found unusable (fenced, or broken by a broker failure) and closed; called
     * after the write returned its lock, never while a term is closed on purpose.
     */
    public void onLost(LongConsumer listener) {
        this.lost = listener;
    }

    /** Closes the writer only if it is still that of term {@code generation} (a later term's stays open). */
    public void close(long generation) {
        OpenTerm now = current.get();
        if (now != null && now.generation() == generation && current.compareAndSet(now, null)) {
            log.info("{} closes its writer of term {}", transactionalId, generation);
            closeQuietly(now);
        }
    }

    /** Whether a term is open on this replica. */
    public boolean isOpen() {
        return current.get() != null;
    }

    /** Publishes one event (keyed by its key) in a transaction of its own. */
    public Outcome publish(String topic, Event event) {
        return write(List.of(record(topic, event)));
    }

    /** The record an event becomes: JSON keyed by the event's key. */
    public static ProducerRecord<byte[], byte[]> record(String topic, Event event) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic,
                event.key().getBytes(StandardCharsets.UTF_8), EventCodec.encode(event));
        record.headers().add("contentType", "application/json".getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /** A tombstone: the key only, no value. */
    public static ProducerRecord<byte[], byte[]> tombstone(String topic, String key) {
        return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), null);
    }

    /**
     * An event's record sent to a chosen partition (one that Kafka's keyed partitioning of another key gives), or a
     * tombstone of {@code key} when {@code event} is null.
     */
    public static ProducerRecord<byte[], byte[]> record(String topic, int partition, String key, Event event) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition,
                key.getBytes(StandardCharsets.UTF_8), event == null ? null : EventCodec.encode(event));
        if (event != null) {
            record.headers().add("contentType", "application/json".getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    /**
     * Writes {@code records} in one transaction under the open term: all of them are read or none. Blocks until the
     * broker committed or refused it. When this write found the producer unusable and closed it, {@link #onLost} hears
     * of it after the write returned its lock (a close by the term's end is not a loss).
     */
    public Outcome write(List<ProducerRecord<byte[], byte[]>> records) {
        Result result = writeInTransaction(records);
        if (result.lost() != null) {
            lost.accept(result.lost());
        }
        return result.outcome();
    }

    /** A write's outcome, and the term whose producer this write closed (null when it closed none). */
    private record Result(Outcome outcome, Long lost) {
    }

    private synchronized Result writeInTransaction(List<ProducerRecord<byte[], byte[]>> records) {
        OpenTerm term = current.get();
        if (term == null) {
            return new Result(count(Outcome.NO_TERM), null);
        }
        if (records.isEmpty()) {
            return new Result(Outcome.COMMITTED, null);
        }
        Producer<byte[], byte[]> producer = term.producer();
        try {
            producer.beginTransaction();
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record);
            }
            producer.commitTransaction(); // flushes; fails when any send failed
            return new Result(count(Outcome.COMMITTED), null);
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            // another replica registered the id: this producer's writes are over, whatever this replica believes
            log.warn("{} fenced under term {} ({}): another replica registered the id", transactionalId,
                    term.generation(), e.getClass().getSimpleName());
            return new Result(count(Outcome.FENCED), discard(term));
        } catch (TimeoutException | InterruptException e) {
            // the commit may still complete: the outcome is unknown, so the producer goes and the term's takeover
            // reads the topics again before anything more is written
            log.warn("{} transaction of {} record(s) under term {} has an unknown outcome: {}", transactionalId,
                    records.size(), term.generation(), e.toString());
            return new Result(count(Outcome.UNKNOWN), discard(term));
        } catch (OutOfOrderSequenceException | AuthorizationException | IllegalStateException e) {
            // the producer cannot be used again (or was closed under the write by the term's end)
            log.warn("{} writer of term {} unusable ({})", transactionalId, term.generation(), e.toString());
            return new Result(count(Outcome.ABORTED), discard(term));
        } catch (KafkaException e) {
            log.warn("{} transaction of {} record(s) aborted under term {}: {}", transactionalId, records.size(),
                    term.generation(), e.getMessage());
            try {
                producer.abortTransaction();
            } catch (ProducerFencedException | InvalidProducerEpochException fenced) {
                return new Result(count(Outcome.FENCED), discard(term));
            } catch (KafkaException | IllegalStateException abortFailed) {
                log.warn("{} could not abort ({}); the writer of term {} is closed", transactionalId,
                        abortFailed.getMessage(), term.generation());
                return new Result(count(Outcome.ABORTED), discard(term));
            }
            return new Result(count(Outcome.ABORTED), null);
        }
    }

    private Outcome count(Outcome outcome) {
        meters.counter("zerolayer.leader.transactions", "outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
                .increment();
        return outcome;
    }

    /** Closes the term's producer if it is still the open one; the term when this call closed it, else null. */
    private Long discard(OpenTerm term) {
        if (current.compareAndSet(term, null)) {
            closeQuietly(term);
            return term.generation();
        }
        return null;
    }

    private static void closeQuietly(OpenTerm term) {
        try {
            term.producer().close(Duration.ZERO); // an open transaction is left to the broker: the next term aborts it
        } catch (RuntimeException e) {
            log.debug("closing the writer of term {}: {}", term.generation(), e.toString());
        }
    }
}
