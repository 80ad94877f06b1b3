package dev.zerolayer.platform.leader;

import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.replica.ReplicaAddress;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.web.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * Exactly one leader among a service's replicas: the one whose election consumer the group assigns partition 0 of the
 * election topic (a topic of the service's own; the partitions stay paused, nothing is fetched), for as long as it holds
 * it (cooperative assignment: others joining or leaving do not interrupt it); a revocation, a loss or a close ends the
 * term at once, and a replica that died is replaced once its session times out.
 */
public class Leadership implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    private final String group;
    private final String topic;
    private final String replica;
    private final Supplier<Optional<URI>> address;
    private final TopicGuard guard;
    private final Duration sessionTimeout;
    private final Clock clock;
    private final List<Consumer<Optional<Term>>> listeners = new CopyOnWriteArrayList<>();
    private final Queue<CompletableFuture<Boolean>> confirmations =
            new ConcurrentLinkedQueue<>();
    private volatile Term term;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile Thread thread;
    private volatile boolean running;
    /** The generation this replica last announced itself under, and when to try again after a refusal (its thread). */
    private long announced = -1;
    private long announceAfterNanos;

    /**
     * @param group          the election group (one per service)
     * @param topic          a topic of the service's own (one partition is best: with more, a replica joining may be
     *                       given partition 0 and the term moves)
     * @param address        where this replica answers HTTP, announced to the followers while it leads (empty: not
     *                       yet known, or nowhere)
     * @param sessionTimeout how long a dead leader holds the term (the broker's minimum is 6 s by default)
     */
    public Leadership(String group, String topic, String replica, Supplier<Optional<URI>> address, TopicGuard guard,
            Duration sessionTimeout, Clock clock) {
        this.group = group;
        this.topic = topic;
        this.replica = replica;
        this.address = address;
        this.guard = guard;
        this.sessionTimeout = sessionTimeout;
        this.clock = clock;
    }

    /**
     * The election of a service's writer: group {@code <service>.leader} over {@code topic} (one of the
     * service's own output topics), with the platform's replica name, address and session timeout.
     */
    public static Leadership over(String topic, ZeroLayerProperties platform, ReplicaId replica,
            ReplicaAddress address, TopicGuard guard, Clock clock) {
        return new Leadership(platform.service() + ".leader", topic, replica.value(), address, guard,
                platform.leaderSessionTimeout(), clock);
    }

    /** The election group. */
    public String group() {
        return group;
    }

    /** The topic whose partition 0 makes its holder the leader. */
    public String topic() {
        return topic;
    }

    /** This replica's id, as it names itself in the election ({@code <group>-<replica>} is its client id). */
    public String replica() {
        return replica;
    }

    /** The client id a replica's election consumer has in the group. */
    public static String clientId(String group, String replica) {
        return group + "-" + replica;
    }

    /** A leader's term: the election group's generation when it began, and when. */
    public record Term(long generation, Instant since) {
    }

    public boolean isLeader() {
        return term != null;
    }

    /** This replica's term while it leads. */
    public Optional<Term> term() {
        return Optional.ofNullable(term);
    }

    /** This replica under its current term, for the records it writes as leader; empty while it follows. */
    public Optional<Writer> writer() {
        Term now = term;
        return now == null ? Optional.empty() : Optional.of(new Writer(replica, now.generation()));
    }

    /** Refuses a write on a replica that does not lead: 503 with {@code Retry-After}, in the API's error shape. */
    public void requireLeading(String what) {
        if (term == null) {
            throw notWriting(what);
        }
    }

    /** The refusal of a write this replica does not take now (it follows, or its term is still starting). */
    public static ApiException notWriting(String what) {
        return ApiException.retryAfter(503, "this replica does not write " + what + " now: another replica leads, "
                + "or one is taking over; try again", 1);
    }

    /**
     * Asks the group coordinator whether this replica still holds term {@code generation}: the election consumer
     * commits an offset under its generation at its next poll, which the coordinator accepts only from a current member
     * of that generation (a replica paused past its session is no longer one). True only if it was accepted and the
     * term is still this one; false on a refusal, a rebalance under way, or no answer within {@code timeout}.
     */
    public boolean confirm(long generation, Duration timeout) throws InterruptedException {
        if (!holds(generation)) {
            return false;
        }
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        confirmations.add(answer);
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS) && holds(generation);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } finally {
            confirmations.remove(answer);
        }
    }

    private boolean holds(long generation) {
        Term now = term;
        return now != null && now.generation() == generation;
    }

    /** Answers the confirmations asked for since the last poll, with one commit on the election consumer's thread. */
    private void answerConfirmations(KafkaConsumer<byte[], byte[]> election) {
        if (confirmations.isEmpty()) {
            return;
        }
        boolean accepted;
        try {
            election.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0, announcement())),
                    Duration.ofSeconds(5));
            accepted = term != null;
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            // refused (not a member of this generation any more), or a rebalance under way: the next poll tells
            log.info("{} could not confirm its term of {}: {}", replica, group, e.toString());
            accepted = false;
        }
        CompletableFuture<Boolean> next;
        while ((next = confirmations.poll()) != null) {
            next.complete(accepted);
        }
    }

    /** What this replica's commits say while it leads: its term and address, or nothing while either is unknown. */
    private String announcement() {
        Term now = term;
        Optional<URI> url = address.get();
        return now == null || url.isEmpty() ? "" : new LeaderAnnouncement(now.generation(), replica, url.get()).encode();
    }

    /**
     * Once per term, as soon as its address is known, the leader commits under its generation with its announcement as
     * the metadata (the coordinator takes it only from a member of the current generation); refused, it tries again a
     * second later.
     */
    private void announce(KafkaConsumer<byte[], byte[]> election) {
        Term now = term;
        if (now == null || announced == now.generation() || System.nanoTime() < announceAfterNanos) {
            return;
        }
        String metadata = announcement();
        if (metadata.isEmpty()) {
            return;
        }
        try {
            election.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0, metadata)),
                    Duration.ofSeconds(5));
            announced = now.generation();
            log.info("{} announced itself as leader of {}: {}", replica, group, metadata);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            announceAfterNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            log.info("{} could not announce its term of {} yet: {}", replica, group, e.toString());
        }
    }

    /** Called with the new term when this replica becomes leader and with empty when it stops leading. */
    public void onChange(Consumer<Optional<Term>> listener) {
        listeners.add(listener);
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "leadership-" + group);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            guard.awaitReady();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Map<String, Object> config = new LinkedHashMap<>(guard.clientProperties());
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, guard.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId(group, replica));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // cooperative: a replica joining or leaving moves no partition it does not have to, so the leader keeps its
        // term while others come and go
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(500, sessionTimeout.toMillis() / 6));
        // the rebalance timeout: a leader that dies while another replica joins is waited for this long, not 5 min;
        // the loop below polls every 250 ms and its callbacks only flip a flag and start threads
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) sessionTimeout.toMillis());
        while (running) {
            try (KafkaConsumer<byte[], byte[]> election = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer = election;
                election.subscribe(List.of(topic), new Listener(election));
                while (running) {
                    election.poll(Duration.ofMillis(250));
                    answerConfirmations(election);
                    announce(election);
                }
            } catch (WakeupException e) {
                // stopping
            } catch (RuntimeException e) {
                step(Optional.empty());
                log.warn("leadership election for {} failed ({}); joining again", group, e.toString());
            } finally {
                consumer = null;
            }
        }
        step(Optional.empty());
    }

    private final class Listener implements ConsumerRebalanceListener {

        private final KafkaConsumer<byte[], byte[]> election;

        Listener(KafkaConsumer<byte[], byte[]> election) {
            this.election = election;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (electing(partitions)) {
                step(Optional.empty());
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (electing(partitions)) {
                step(Optional.empty());
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            election.pause(election.assignment());
            if (electing(partitions)) {
                step(Optional.of(new Term(election.groupMetadata().generationId(), clock.instant())));
            }
        }
    }

    private static boolean electing(Collection<TopicPartition> partitions) {
        return partitions.stream().anyMatch(partition -> partition.partition() == 0);
    }

    private synchronized void step(Optional<Term> next) {
        Term before = term;
        if (next.isEmpty() && before == null) {
            return;
        }
        term = next.orElse(null);
        if (next.isPresent()) {
            log.info("{} leads {} (generation {})", replica, group, next.get().generation());
        } else {
            log.info("{} no longer leads {}", replica, group);
        }
        for (Consumer<Optional<Term>> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("leadership listener failed: {}", e.toString());
            }
        }
    }

    @Override
    public Health health() {
        Term now = term;
        Health.Builder health = Health.up().withDetail("replica", replica).withDetail("role",
                now == null ? "follower" : "leader");
        address.get().ifPresent(url -> health.withDetail("address", url.toString()));
        if (now != null) {
            health.withDetail("generation", now.generation()).withDetail("since", now.since().toString());
        }
        return health.build();
    }

    @Override
    public void stop() {
        Thread running;
        synchronized (this) {
            this.running = false;
            running = thread;
            thread = null;
        }
        KafkaConsumer<byte[], byte[]> election = consumer;
        if (election != null) {
            election.wakeup();
        } else if (running != null) {
            running.interrupt(); // still waiting for the topics (broker away): nothing to leave
        }
        if (running != null) {
            try {
                running.join(sessionTimeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        step(Optional.empty());
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
