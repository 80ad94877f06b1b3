package dev.zerolayer.cache.publication;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.Writer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
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
 * Publishes the cache's state on a fixed cadence, coalesced: each tick sends every index block whose holders changed
 * since the last tick once (its holders now, or a tombstone when nobody holds it), at most {@code maxPerTick} of them,
 * then the changed and forgotten sessions, then queued prewarm commands; what could not be sent stays queued for the
 * next tick. Among replicas only the one that leads writes (each record stamped with it and its term); the others
 * forget their changes each tick and take no prewarm, and a replica that begins to lead first reconciles with what the
 * topics hold. Stops after the consumers and before the producers, sending what is left.
 */
public class CachePublisher implements SmartLifecycle {

    public static final String INDEX_BINDING = "kvIndex-out-0";
    public static final String SESSIONS_BINDING = "sessions-out-0";
    public static final String PREWARM_BINDING = "prewarm-out-0";

    private static final Logger log = LoggerFactory.getLogger(CachePublisher.class);

    private final BlockIndex index;
    private final SessionTracker sessions;
    private final Outbox outbox;
    private final Clock clock;
    private final Duration interval;
    private final int maxPerTick;
    private final int maxQueuedPrewarms;
    private final Deque<PrewarmCommand> prewarms = new ArrayDeque<>();
    private final Counter indexUpdates;
    private final Counter tombstones;
    private final Counter prewarmsSent;
    private final Counter prewarmsDropped;
    private final BooleanSupplier restored;
    private ScheduledExecutorService executor;
    private volatile boolean writing = true;
    private volatile Writer writer;

    public CachePublisher(BlockIndex index, SessionTracker sessions, Outbox outbox, Clock clock, Duration interval,
            int maxPerTick, int maxQueuedPrewarms, MeterRegistry meters) {
        this(index, sessions, outbox, clock, interval, maxPerTick, maxQueuedPrewarms, () -> true, meters);
    }

    /**
     * @param restored whether the state of before the start has been read back and replayed: until then nothing is
     *     published, so what goes out first is the net change of the whole restore, never a step of it
     */
    public CachePublisher(BlockIndex index, SessionTracker sessions, Outbox outbox, Clock clock, Duration interval,
            int maxPerTick, int maxQueuedPrewarms, BooleanSupplier restored, MeterRegistry meters) {
        this.restored = restored;
        this.index = index;
        this.sessions = sessions;
        this.outbox = outbox;
        this.clock = clock;
        this.interval = interval;
        this.maxPerTick = maxPerTick;
        this.maxQueuedPrewarms = maxQueuedPrewarms;
        this.indexUpdates = Counter.builder("zerolayer.cache.index.published").tag("kind", "entry")
                .description("Index records published").register(meters);
        this.tombstones = Counter.builder("zerolayer.cache.index.published").tag("kind", "tombstone")
                .description("Index records published").register(meters);
        this.prewarmsSent = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "sent")
                .register(meters);
        this.prewarmsDropped = Counter.builder("zerolayer.cache.prewarm.commands").tag("outcome", "dropped")
                .register(meters);
        Gauge.builder("zerolayer.cache.index.pending", index, BlockIndex::pendingChanges)
                .description("Index blocks changed and not yet published").register(meters);
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
     * Begins writing as {@code stamp} after a reconciliation with what the topics hold ({@code index}: block →
     * holders, {@code published}: session hash → record), so the next ticks send exactly the difference; does nothing
     * unless {@code stillLeading} holds once reconciled. Says whether this replica now writes.
     */
    public synchronized boolean lead(Writer stamp, Map<Long, List<String>> index, Map<String, SessionEntry> published,
            BooleanSupplier stillLeading) {
        this.index.reconcile(index);
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

    /** One publication round; returns how many records went out. */
    public synchronized int tick() {
        if (!restored.getAsBoolean()) {
            return 0;
        }
        if (!writing) {
            index.discardChanges();
            sessions.discardChanges();
            return 0;
        }
        int sent = publishIndex();
        sent += publishSessions();
        sent += publishPrewarms();
        return sent;
    }

    private int publishIndex() {
        long[] before = new long[maxPerTick];
        List<BlockIndex.Change> changes = index.drainChanges(maxPerTick, before);
        Instant now = clock.instant();
        int sent = 0;
        Writer stamp = writer;
        for (int i = 0; i < changes.size(); i++) {
            BlockIndex.Change change = changes.get(i);
            boolean ok = writing && (change.nodes().isEmpty()
                    ? outbox.tombstone(INDEX_BINDING, Long.toUnsignedString(change.blockHash()))
                    : outbox.publish(INDEX_BINDING, new KvIndexEntry(EventChecks.newEventId(), now,
                            KvIndexEntry.SCHEMA_VERSION, change.blockHash(), null, change.nodes(), stamp)));
            if (!ok) {
                for (int j = i; j < changes.size(); j++) {
                    index.requeue(changes.get(j).blockHash(), before[j]);
                }
                break;
            }
            (change.nodes().isEmpty() ? tombstones : indexUpdates).increment();
            sent++;
        }
        return sent;
    }

    private int publishSessions() {
        SessionTracker.Drained drained = sessions.drain(clock.instant());
        int sent = 0;
        List<String> failed = new ArrayList<>();
        Writer stamp = writer;
        for (SessionEntry entry : drained.entries()) {
            if (failed.isEmpty() && writing && outbox.publish(SESSIONS_BINDING, entry.withWriter(stamp))) {
                sent++;
            } else {
                failed.add(entry.sessionHash());
            }
        }
        List<String> failedTombstones = new ArrayList<>();
        for (String hash : drained.tombstones()) {
            if (failedTombstones.isEmpty() && writing && outbox.tombstone(SESSIONS_BINDING, hash)) {
                sent++;
            } else {
                failedTombstones.add(hash);
            }
        }
        if (!failed.isEmpty() || !failedTombstones.isEmpty()) {
            sessions.requeue(failed, failedTombstones);
        }
        return sent;
    }

    private int publishPrewarms() {
        int sent = 0;
        while (true) {
            PrewarmCommand next;
            synchronized (prewarms) {
                next = prewarms.peekFirst();
            }
            if (next == null || !writing || !outbox.publish(PREWARM_BINDING, next)) {
                return sent;
            }
            synchronized (prewarms) {
                if (prewarms.peekFirst() == next) {
                    prewarms.pollFirst();
                }
            }
            prewarmsSent.increment();
            sent++;
        }
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
