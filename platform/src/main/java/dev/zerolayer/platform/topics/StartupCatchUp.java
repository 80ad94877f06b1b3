package dev.zerolayer.platform.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up catch-up of every service: asks where its topics end now and waits until its readers reached those ends,
 * with one admin client built from the shared client settings ({@link KafkaClientSecurity}) and one retry pace
 * ({@link Backoff}).
 */
public final class StartupCatchUp implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StartupCatchUp.class);
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);
    private static final Duration PROBE_POLL = Duration.ofMillis(100);
    private static final Duration PROBE_LIMIT = Duration.ofSeconds(2);

    /** Where a reader stands on one topic: the next offset per partition (none for a partition not read yet). */
    @FunctionalInterface
    public interface Positions {
        Map<TopicPartition, Long> of(String topic) throws Exception;
    }

    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private Admin admin;
    private KafkaConsumer<byte[], byte[]> probe;

    public StartupCatchUp(String bootstrapServers, Map<String, ?> clientProperties) {
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
    }

    /** With the guard's broker and client settings, as every other client of the service. */
    public static StartupCatchUp of(TopicGuard guard) {
        return new StartupCatchUp(guard.bootstrapServers(), guard.clientProperties());
    }

    /**
     * The earliest and end offsets of every partition of {@code topics}, asked until the broker answers (each failure
     * goes to {@code problem}, then a {@link Backoff} pause).
     */
    public StartOffsets startOffsets(Collection<String> topics, Consumer<String> problem) throws InterruptedException {
        Backoff backoff = new Backoff();
        while (true) {
            try {
                return startOffsetsOnce(topics);
            } catch (ExecutionException | RuntimeException e) {
                String cause = causeOf(e);
                problem.accept(cause);
                Duration pause = backoff.next();
                log.warn("cannot read the offsets of {} yet ({}); retrying in {} ms", topics, cause, pause.toMillis());
                Thread.sleep(pause.toMillis());
            }
        }
    }

    private StartOffsets startOffsetsOnce(Collection<String> topics) throws ExecutionException, InterruptedException {
        Map<String, TopicDescription> described = admin().describeTopics(topics).allTopicNames().get();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        described.values().forEach(topic -> topic.partitions().forEach(p -> {
            TopicPartition partition = new TopicPartition(topic.name(), p.partition());
            earliest.put(partition, OffsetSpec.earliest());
            latest.put(partition, OffsetSpec.latest());
        }));
        Map<TopicPartition, Long> from = new HashMap<>();
        admin().listOffsets(earliest).all().get().forEach((partition, info) -> from.put(partition, info.offset()));
        Map<TopicPartition, Long> to = new HashMap<>();
        admin().listOffsets(latest).all().get().forEach((partition, info) -> to.put(partition, info.offset()));
        return new StartOffsets(from, to);
    }

    /** The offsets a consumer group has committed, as next offsets per partition. */
    public Map<TopicPartition, Long> committed(String group) throws ExecutionException, InterruptedException {
        Map<TopicPartition, Long> positions = new HashMap<>();
        admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((partition, offset) -> {
            if (offset != null) {
                positions.put(partition, offset.offset());
            }
        });
        return positions;
    }

    /**
     * The offsets a consumer group has committed, each moved on to its partition's end of the start when nothing but
     * what a {@code read_committed} reader skips (transaction commit markers, aborted records) lies between them: a
     * group commits the offset after the last record it was handed, one short of a trailing commit marker, so a reader
     * done with a topic its leader writes in transactions would otherwise never count as at the end. Found by a probe
     * of its own (no group, {@code read_committed}) that reads from the committed offset for at most 2 s: no record up
     * to the end means there is none. A partition the group committed nothing for is probed from its earliest offset.
     */
    public Map<TopicPartition, Long> committedPastMarkers(String group, StartOffsets start)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, Long> positions = committed(group);
        Map<TopicPartition, Long> from = new HashMap<>();
        start.end().forEach((partition, end) -> {
            // a group that committed nothing here has read nothing: probed from the earliest offset (a partition
            // holding only aborted transactions has nothing it could ever commit past)
            long next = positions.getOrDefault(partition, start.earliest().getOrDefault(partition, 0L));
            if (next < end) {
                from.put(partition, next);
            }
        });
        if (from.isEmpty()) {
            return positions;
        }
        KafkaConsumer<byte[], byte[]> probe = probe();
        probe.assign(from.keySet());
        from.forEach(probe::seek);
        List<TopicPartition> open = new ArrayList<>(from.keySet());
        long deadline = System.nanoTime() + PROBE_LIMIT.toNanos();
        try {
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = probe.poll(PROBE_POLL);
                for (java.util.Iterator<TopicPartition> it = open.iterator(); it.hasNext(); ) {
                    TopicPartition partition = it.next();
                    long end = start.end().get(partition);
                    if (!records.records(partition).isEmpty()) {
                        it.remove(); // a record the group has not committed past: not read yet
                    } else if (probe.position(partition, PROBE_POLL) >= end) {
                        positions.put(partition, end);
                        it.remove();
                    }
                }
            }
        } catch (org.apache.kafka.clients.consumer.InvalidOffsetException e) {
            // the committed offset is no longer in the log: not counted as read by the probe
            log.warn("catch-up probe of group {}: {}", group, e.getMessage());
        }
        return positions;
    }

    private KafkaConsumer<byte[], byte[]> probe() {
        if (probe == null) {
            Map<String, Object> config = new HashMap<>();
            config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
            config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"); // never jump to the end on its own
            // a fetch still waiting at an earlier round's position must not hold up the next round's seek for long
            config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
            probe = StateConsumers.open(bootstrapServers, clientProperties, config);
        }
        return probe;
    }

    /**
     * Asks {@code positions} every {@code poll} until each topic of {@code start} is read up to its end of the start
     * (true) or {@code keepGoing} turns false (false); {@code waiting} hears the topics still behind after each round
     * and {@code problem} a failed round (null after a good one).
     */
    public boolean awaitCaughtUp(StartOffsets start, Positions positions, Duration poll, BooleanSupplier keepGoing,
            Consumer<List<String>> waiting, Consumer<String> problem) throws InterruptedException {
        long nextLog = System.nanoTime() + LOG_EVERY.toNanos();
        while (keepGoing.getAsBoolean()) {
            try {
                List<String> behind = new ArrayList<>();
                for (String topic : start.topics()) {
                    Map<TopicPartition, Long> at = positions.of(topic);
                    if (!start.of(topic).reachedBy(at::get)) {
                        behind.add(topic);
                    }
                }
                problem.accept(null);
                waiting.accept(List.copyOf(behind));
                if (behind.isEmpty()) {
                    return true;
                }
                if (System.nanoTime() > nextLog) {
                    log.warn("still reading {} up to their end offsets of the start", behind);
                    nextLog = System.nanoTime() + LOG_EVERY.toNanos();
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                problem.accept(causeOf(e));
            }
            Thread.sleep(poll.toMillis()); // polling the readers' positions at a fixed pace
        }
        return false;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(KafkaClientSecurity.adminConfig(bootstrapServers, clientProperties, 10_000, 5_000));
        }
        return admin;
    }

    private static String causeOf(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    @Override
    public synchronized void close() {
        if (probe != null) {
            probe.close(Duration.ofSeconds(5));
            probe = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
