package dev.zerolayer.simulator.kv;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.zerolayer.platform.events.EventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Sends KV-cache events through the {@code kvEvents-out-0} binding ({@code cache.kv-events.v1}) keyed by node id, in
 * the order the nodes emitted them, from one background thread: the request path only enqueues. Events wait while the
 * topics are unverified or the broker refuses them; past {@code maxQueued} the oldest are dropped and counted (readers
 * see the gap in the sequence).
 */
public class KafkaKvEventPublisher implements KvEventSink, SmartLifecycle {

    static final String BINDING = "kvEvents-out-0";
    private static final Logger log = LoggerFactory.getLogger(KafkaKvEventPublisher.class);

    private final EventPublisher events;
    private final TopicGuard guard;
    private final int maxQueued;
    private final Deque<KvCacheEvent> queue = new ArrayDeque<>();
    private final Counter dropped;
    private ScheduledExecutorService executor;

    public KafkaKvEventPublisher(EventPublisher events, TopicGuard guard, MeterRegistry meters, int maxQueued) {
        this.events = events;
        this.guard = guard;
        this.maxQueued = maxQueued;
        this.dropped = Counter.builder("zerolayer.simulator.kv.events.dropped").register(meters);
    }

    @Override
    public void publish(KvCacheEvent event) {
        synchronized (queue) {
            if (queue.size() >= maxQueued) {
                queue.pollFirst();
                dropped.increment();
            }
            queue.addLast(event);
        }
    }

    /** Sends what is queued, in order, until the queue is empty or a send fails. */
    void drain() {
        if (!guard.ready()) {
            return;
        }
        while (true) {
            KvCacheEvent next;
            synchronized (queue) {
                next = queue.peekFirst();
            }
            if (next == null || !send(next)) {
                return;
            }
            synchronized (queue) {
                if (queue.peekFirst() == next) {
                    queue.pollFirst();
                }
            }
        }
    }

    private boolean send(KvCacheEvent event) {
        return events.publish(BINDING, event);
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sim-kv-events");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::drainQuietly, 20, 20, TimeUnit.MILLISECONDS);
    }

    private void drainQuietly() {
        try {
            drain();
        } catch (RuntimeException e) {
            log.warn("KV event drain failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdown();
            try {
                executor.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            drainQuietly();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    /** Starts before the fleet and stops after it, so the fleet's last events still go out. */
    @Override
    public int getPhase() {
        return -100;
    }
}
