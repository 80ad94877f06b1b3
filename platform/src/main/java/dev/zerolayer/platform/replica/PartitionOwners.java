package dev.zerolayer.platform.replica;

import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.platform.leader.TermWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicas sharing the partitions of one input topic through a consumer group (cooperative: a rebalance moves only
 * the partitions that change owner), each the only writer of what its partitions produce: on assignment a gained
 * partition's writer (a transactional id of its own for the partition) is opened, which fences a former owner before
 * anything is read, then the subclass takes the partition over (reads what its state needs, says where to go on from);
 * records of owned partitions are applied to their state; every {@code interval} each owned partition publishes one
 * round, stamped with this replica and the group generation, in one transaction, or keeps it for the next; a revoked
 * partition publishes what is left before the revocation completes; a lost one closes its writer; a partition's offset
 * is committed (after a round, and on revocation) only up to where everything applied to it was published, so a
 * takeover may go on from it ({@link #committedWithinLog}). One thread polls, applies and publishes: a partition's
 * state is never shared.
 *
 * @param <S> one owned partition's state
 */
public abstract class PartitionOwners<S> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PartitionOwners.class);

    private final String topic;
    private final String group;
    private final String replica;
    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final IntFunction<TermWriter> writers;
    private final Duration interval;
    private final Duration sessionTimeout;
    private final Map<Integer, Owned<S>> owned = new TreeMap<>();
    private final java.util.Queue<Runnable> inbox = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean running;
    private volatile long generation = -1;
    private volatile int partitionCount;
    private Thread thread;
    private KafkaConsumer<byte[], byte[]> consumer;

    private record Owned<S>(S state, TermWriter writer) {
    }

    /**
     * @param topic   the input topic whose partitions the replicas share
     * @param group   the consumer group they share it through
     * @param writers the writer of one partition, made when it is gained
     */
    protected PartitionOwners(String topic, String group, String replica, String bootstrapServers,
            Map<String, ?> clientProperties, IntFunction<TermWriter> writers, Duration interval,
            Duration sessionTimeout) {
        this.topic = topic;
        this.group = group;
        this.replica = replica;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
        this.writers = writers;
        this.interval = interval;
        this.sessionTimeout = sessionTimeout;
    }

    /** A gained partition's empty state. */
    protected abstract S newState(int partition);

    /**
     * Fills the gained partitions' states (their writers are open already) and returns, per partition, the offset of
     * the input topic to go on from (absent: the group's committed position).
     */
    protected abstract Map<Integer, Long> takeOver(Map<Integer, S> gained);

    /** Applies one record of an owned partition to its state. */
    protected abstract void apply(S state, ConsumerRecord<byte[], byte[]> record);

    /** What partition {@code partition} publishes now, stamped {@code stamp}. */
    protected abstract PublicationRound round(int partition, S state, Writer stamp);

    /**
     * Whether everything applied to this partition's state has been published (its offset may then be committed as
     * the point a new owner can go on from); by default always.
     */
    protected boolean published(S state) {
        return true;
    }

    /**
     * The group's committed offsets of {@code partitions} that lie within the log (from its start to its end), for a
     * takeover that goes on from where the former owner published everything up to; call from {@link #takeOver}.
     */
    protected Map<Integer, Long> committedWithinLog(Set<Integer> partitions) {
        return OwnerConsumer.committedWithinLog(consumer, topic, partitions);
    }

    /** After each round of every owned partition ({@code owned}), on the polling thread. */
    protected void roundsDone(Set<Integer> owned) {
    }

    /**
     * A partition taken over (its state filled, its records applied from now on), with its open writer, for what else
     * may write under it while the partition is owned; on the polling thread.
     */
    protected void gained(int partition, S state, TermWriter writer) {
    }

    /**
     * A partition this replica no longer owns (revoked after its last round, or lost); its state, to keep or not. Called
     * before its writer closes: what still writes under it may finish (a lost partition's writes are refused).
     */
    protected void released(int partition, S state) {
    }

    /** Joins the group and polls, applies and publishes on a thread of its own. */
    public synchronized void start() {
        if (running) {
            return;
        }
        consumer = OwnerConsumer.open(group, replica, bootstrapServers, clientProperties, sessionTimeout);
        running = true;
        thread = new Thread(this::run, group + "-owners");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code task} on the polling thread, between polls (an input from outside the topic, applied to an owned
     * partition's state as its records are); not run when the owners stop first.
     */
    protected void onPollingThread(Runnable task) {
        if (running) {
            inbox.add(task);
        }
    }

    /** An owned partition's state, or null (for tasks on the polling thread). */
    protected synchronized S ownedState(int partition) {
        Owned<S> owned = this.owned.get(partition);
        return owned == null ? null : owned.state();
    }

    /** Whether the service is still running (a long takeover read stops when it is not). */
    protected boolean running() {
        return running;
    }

    public String replica() {
        return replica;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Map<String, ?> clientProperties() {
        return clientProperties;
    }

    /** The partitions this replica owns now. */
    public synchronized Set<Integer> owned() {
        return Set.copyOf(owned.keySet());
    }

    /** How many partitions the input topic has (0 before the first assignment). */
    public int partitionCount() {
        return partitionCount;
    }

    /** The group generation of this replica's assignment (-1 before the first). */
    public long generation() {
        return generation;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(topic), new Handover());
            long nextRound = System.nanoTime();
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(interval)) {
                    Owned<S> partition;
                    synchronized (this) {
                        partition = owned.get(record.partition());
                    }
                    if (partition != null) {
                        apply(partition.state(), record);
                    }
                }
                for (Runnable task = inbox.poll(); task != null; task = inbox.poll()) {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        log.warn("{} owners: an input from outside the topic failed: {}", topic, e.toString());
                    }
                }
                if (System.nanoTime() >= nextRound) {
                    try {
                        Set<Integer> owning = owned();
                        Map<TopicPartition, OffsetAndMetadata> applied = positions(owning);
                        publish(owning);
                        roundsDone(owning);
                        // an owned partition's offset moves on once all it applied is published: a new owner that
                        // goes on from it (takeOver's choice) misses nothing; otherwise it shows the owners' lag
                        commit(publishedUpTo(applied), false);
                    } catch (RuntimeException e) {
                        log.warn("{} publication round failed: {}", topic, e.toString()); // the next round retries
                    }
                    nextRound = System.nanoTime() + interval.toNanos();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            log.error("{} owners stopped: {}", topic, e.toString(), e);
        } finally {
            try {
                consumer.close(); // leaves the group: the revocation publishes what is left
            } catch (RuntimeException e) {
                log.debug("closing the {} owners' consumer: {}", topic, e.toString());
            }
            synchronized (this) {
                drop(new TreeSet<>(owned.keySet()));
            }
        }
    }

    /** Where the polling consumer stands in each of {@code partitions} that this replica owns. */
    private Map<TopicPartition, OffsetAndMetadata> positions(Set<Integer> partitions) {
        return OwnerConsumer.positions(consumer, topic, partitions.stream().filter(p -> ownedState(p) != null).toList());
    }

    /** Of the positions taken before a round, those of partitions whose state the round left all published. */
    private Map<TopicPartition, OffsetAndMetadata> publishedUpTo(Map<TopicPartition, OffsetAndMetadata> applied) {
        Map<TopicPartition, OffsetAndMetadata> published = new HashMap<>(applied);
        published.keySet().removeIf(tp -> {
            S state = ownedState(tp.partition());
            return state == null || !published(state);
        });
        return published;
    }

    /** Commits offsets: after a round without waiting (the next round commits again), on revocation waiting. */
    private void commit(Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
        if (offsets.isEmpty()) {
            return;
        }
        try {
            if (sync) {
                consumer.commitSync(offsets);
            } else {
                consumer.commitAsync(offsets, null);
            }
        } catch (RuntimeException e) {
            log.warn("{} owners: offsets of {} not committed: {}", topic, offsets.keySet(), e.toString());
        }
    }

    /** One round per partition, each in a transaction of its partition's writer; a round not sent stays pending. */
    private void publish(Collection<Integer> partitions) {
        if (partitions.isEmpty()) {
            return; // nothing owned (before the first assignment, the generation is not known)
        }
        Writer stamp = new Writer(replica, generation);
        for (int p : partitions) {
            Owned<S> partition;
            synchronized (this) {
                partition = owned.get(p);
            }
            if (partition == null) {
                continue;
            }
            PublicationRound round = round(p, partition.state(), stamp);
            if (round.records().isEmpty()) {
                continue;
            }
            TermWriter.Outcome outcome = partition.writer().write(round.records());
            if (outcome == TermWriter.Outcome.COMMITTED) {
                round.sent().run();
            } else {
                round.notSent().run();
                log.warn("{} round of partition {} not published ({}): {} records stay pending", topic, p, outcome,
                        round.records().size());
            }
        }
    }

    /** Takes partitions over on assignment, gives them up on revocation or loss; runs on the polling thread. */
    private final class Handover implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<Integer> revoked = numbers(partitions);
            Map<TopicPartition, OffsetAndMetadata> applied = positions(revoked);
            publish(revoked); // before another replica may be assigned them
            commit(publishedUpTo(applied), true); // the next owner goes on from here
            drop(revoked);
            if (!revoked.isEmpty()) {
                log.info("{} partitions {} revoked: published and given up", topic, revoked);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            Set<Integer> lost = numbers(partitions);
            drop(lost);
            log.warn("{} partitions {} lost: given up without publishing", topic, lost);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            generation = consumer.groupMetadata().generationId();
            partitionCount = consumer.partitionsFor(topic).size();
            Set<Integer> gained = new TreeSet<>(numbers(partitions));
            synchronized (PartitionOwners.this) {
                gained.removeAll(owned.keySet());
            }
            if (gained.isEmpty()) {
                return;
            }
            long started = System.nanoTime();
            Map<Integer, Owned<S>> taken = new HashMap<>();
            try {
                Map<Integer, S> states = new TreeMap<>();
                for (int p : gained) {
                    TermWriter writer = writers.apply(p);
                    writer.open(generation); // fences a former owner before anything is read
                    S state = newState(p);
                    taken.put(p, new Owned<>(state, writer));
                    states.put(p, state);
                }
                Map<Integer, Long> from = takeOver(states);
                from.forEach((p, offset) -> consumer.seek(new TopicPartition(topic, p), offset));
            } catch (RuntimeException e) {
                // a broker failure mid-takeover: nothing of it is kept, and the group is asked to assign again
                taken.values().forEach(o -> o.writer().close());
                log.warn("taking over {} partitions {} failed, rejoining: {}", topic, gained, e.toString());
                consumer.enforceRebalance();
                return;
            }
            synchronized (PartitionOwners.this) {
                owned.putAll(taken);
            }
            taken.forEach((p, o) -> gained(p, o.state(), o.writer()));
            log.info("{} partitions {} taken over under generation {} in {} ms", topic, gained, generation,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    private synchronized void drop(Set<Integer> partitions) {
        for (int p : partitions) {
            Owned<S> partition = owned.remove(p);
            if (partition != null) {
                released(p, partition.state());
                partition.writer().close();
            }
        }
    }

    private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
        Set<Integer> numbers = new TreeSet<>();
        partitions.forEach(p -> numbers.add(p.partition()));
        return numbers;
    }

    /** Leaves the group (its revocation publishes what is left) and stops. */
    @Override
    public void close() {
        Thread polling;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            polling = thread;
        }
        consumer.wakeup();
        try {
            polling.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
