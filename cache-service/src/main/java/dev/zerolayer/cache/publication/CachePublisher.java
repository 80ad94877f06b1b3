package dev.zerolayer.cache.publication;

import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Publishes the sessions and prewarm commands on a fixed cadence, coalesced, one round at a time sent all or none: each
 * tick sends the changed and forgotten sessions, then queued prewarm commands; a round that could not be sent stays
 * queued for the next tick. Among replicas only the one that leads writes (each record stamped with it and its term);
 * the others forget their changes each tick and take no prewarm, and a replica that begins to lead first reconciles
 * with what the topic holds. The index is not published here: its partitions' owners do ({@code NodeOwners}, {@code
 * BlockOwners}). Stops after the consumers and before the producers, sending what is left.
 */
public class CachePublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CachePublisher.class);

    private final SessionTracker sessions;
    private final Outbox outbox;
    private final Clock clock;
    private final Duration interval;
    private final int maxQueuedPrewarms;
    private final Deque<PrewarmCommand> prewarms = new ArrayDeque<>();
    private final Counter prewarmsSent;
    private final Counter prewarmsDropped;
    private final BooleanSupplier restored;
    private ScheduledExecutorService executor;
    private volatile boolean writing = true;
    private volatile Writer writer;

    public CachePublisher(SessionTracker sessions, Outbox outbox, Clock clock, Duration interval,
            int maxQueuedPrewarms, MeterRegistry meters) {
        this(sessions, outbox, clock, interval, maxQueuedPrewarms, () -> true, meters);
    }

    /**
     * @param restored whether the state of before the start has been read back and replayed: until then nothing is
     *     published, so what goes out first is the net change of the whole restore, never a step of it
     */
    public CachePublisher(SessionTracker sessions, Outbox outbox, Clock clock, Duration interval,
            int maxQueuedPrewarms, BooleanSupplier restored, MeterRegistry meters) {
        this.restored = restored;
        this.sessions = sessions;
        this.outbox = outbox;
        this.clock = clock;
        this.interval = interval;
        this.maxQueuedPrewarms = maxQueuedPrewarms;
        this.prewarmsSent = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "sent")
                .register(meters);
        this.prewarmsDropped = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "dropped")
                .register(meters);
    }

    /**
     * Stops writing at once (a replica that does not lead): from now on changes are forgotten each tick and prewarm
     * commands are not taken.
     */
    public void follow() {
        writing = false;
        writer = null;
        synchronized (prewarms) {
            prewarms.clear();
        }
    }

    /**
     * Begins writing as {@code stamp} after a reconciliation with what the topic holds ({@code published}: session hash
     * → record), so the next ticks send exactly the difference; does nothing unless {@code stillLeading} holds once
     * reconciled. Says whether this replica now writes.
     */
    public synchronized boolean lead(Writer stamp, Map<String, SessionEntry> published, BooleanSupplier stillLeading) {
        sessions.reconcile(published, clock.instant());
        if (!stillLeading.getAsBoolean()) {
            return false;
        }
        writer = stamp;
        writing = true;
        return true;
    }

    /** Whether this replica writes the cache's topics now. */
    public boolean writing() {
        return writing;
    }

    /** Queues a prewarm command (past the queue limit the oldest is dropped and counted); not taken while following. */
    public void prewarm(PrewarmCommand command) {
        if (!writing) {
            return;
        }
        synchronized (prewarms) {
            if (prewarms.size() >= maxQueuedPrewarms) {
                prewarms.pollFirst();
                prewarmsDropped.increment();
            }
            prewarms.addLast(command);
        }
    }

    /** One publication round, sent as one unit (all or none); returns how many records went out. */
    public synchronized int tick() {
        if (!restored.getAsBoolean()) {
            return 0;
        }
        if (!writing) {
            sessions.discardChanges();
            return 0;
        }
        Instant now = clock.instant();
        Writer stamp = writer;
        SessionTracker.Drained drained = sessions.drain(now);
        List<PrewarmCommand> commands;
        synchronized (prewarms) {
            commands = List.copyOf(prewarms);
        }
        List<Outbox.Outgoing> round = new ArrayList<>(drained.entries().size() + drained.tombstones().size()
                + commands.size());
        drained.entries().forEach(entry -> round.add(Outbox.Outgoing.of(Topics.CACHE_SESSIONS,
                entry.withWriter(stamp))));
        drained.tombstones().forEach(hash -> round.add(Outbox.Outgoing.tombstone(Topics.CACHE_SESSIONS, hash)));
        commands.forEach(command -> round.add(Outbox.Outgoing.of(Topics.CACHE_PREWARM, command)));
        if (round.isEmpty()) {
            return 0;
        }
        boolean sent;
        try {
            sent = writing && outbox.send(round);
        } catch (RuntimeException e) {
            log.warn("cache publication round of {} record(s) not sent: {}", round.size(), e.toString());
            sent = false; // requeued below, like a refused round
        }
        if (!sent) {
            sessions.requeue(drained.entries().stream().map(SessionEntry::sessionHash).toList(),
                    drained.tombstones());
            return 0;
        }
        synchronized (prewarms) {
            commands.forEach(prewarms::removeFirstOccurrence); // sent; the ones queued meanwhile stay
        }
        prewarmsSent.increment(commands.size());
        return round.size();
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.warn("cache publication round failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cache-publisher");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::tickQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        ScheduledExecutorService running;
        synchronized (this) {
            running = executor;
            executor = null;
        }
        if (running != null) {
            running.shutdown();
            try {
                running.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // what the consumers applied last still goes out
            for (int round = 0; round < 100 && tick() > 0; round++) {
                // until nothing is left or a send fails
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    /** Stops after the input bindings (phase MAX_VALUE - 3000) and before the output bindings (MIN_VALUE + 1000). */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 4000;
    }
}
