package dev.zerolayer.router.events;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.RoutingDecision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Decision events go into a bounded in-memory buffer that one background thread hands, in batches, to an idempotent
 * Kafka producer for {@code router.decisions.v1} (keyed by request id, JSON, the request's trace context as headers)
 * once the topics are verified; a full buffer drops and counts, an event the broker did not take in time goes back
 * into the buffer, so a request is never delayed or failed by publishing and an outage loses nothing the buffer holds.
 */
public class DecisionPublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DecisionPublisher.class);
    private static final int BATCH = 512;
    /**
     * The publishing thread drains the buffer on this cadence instead of waiting on it: nobody waits on the buffer,
     * so offering an event wakes no thread (waiting on it woke this thread for nearly every request, a context switch
     * each on a busy machine); an event waits at most this long before the producer, which lingers 50 ms anyway.
     */
    static final long DRAIN_INTERVAL_MS = 20;
    /** The {@code binding} label of the publish counters, as when the events went through a binder binding. */
    static final String SERIES = "decisions-out-0";

    /** Lock-free: an event loop offering never waits for the other loop or for the publishing thread's drain. */
    private final Queue<Pending> buffer = new ConcurrentLinkedQueue<>();
    private final AtomicInteger bufferSize = new AtomicInteger();
    private final int capacity;
    private final String topic;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final BooleanSupplier topicsReady;
    private final Counter dropped;
    private final Counter published;
    private final Counter failures;
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private volatile boolean running;
    private volatile Producer<byte[], byte[]> producer;
    private Thread worker;

    /**
     * @param producers makes the producer once the topics are verified (the publisher closes it when it stops)
     * @param topicsReady whether the service's topics are verified (nothing is sent before)
     */
    public DecisionPublisher(int capacity, String topic, Supplier<Producer<byte[], byte[]>> producers,
            BooleanSupplier topicsReady, MeterRegistry meters) {
        this.capacity = capacity;
        this.topic = topic;
        this.producers = producers;
        this.topicsReady = topicsReady;
        this.dropped = Counter.builder("zerolayer_router_events_dropped")
                .description("decision events dropped: buffer full, or refused by the broker for good")
                .register(meters);
        this.published = Counter.builder("zerolayer.events.published").tag("binding", SERIES)
                .description("events the broker acknowledged").register(meters);
        this.failures = Counter.builder("zerolayer.events.publish.failures").tag("binding", SERIES)
                .description("sends the broker did not acknowledge (the event is buffered again)").register(meters);
        Gauge.builder("zerolayer_router_events_buffered", this, DecisionPublisher::buffered)
                .description("decision events waiting: in the buffer or sent and not yet acknowledged")
                .register(meters);
    }

    /** A decision event and the trace context headers it carries to Kafka. */
    private record Pending(RoutingDecision decision, Map<String, String> headers) {
    }

    /** Queues the event; never blocks. Returns false when the buffer was full and the event was dropped. */
    public boolean offer(RoutingDecision decision) {
        return offer(decision, Map.of());
    }

    /** Queues the event with the request's trace context headers; never blocks. False when dropped (buffer full). */
    public boolean offer(RoutingDecision decision, Map<String, String> headers) {
        boolean queued = enqueue(new Pending(decision, headers));
        if (!queued) {
            dropped.increment();
        }
        return queued;
    }

    /** Adds to the buffer unless it holds {@code capacity} events already. */
    private boolean enqueue(Pending pending) {
        if (bufferSize.incrementAndGet() > capacity) {
            bufferSize.decrementAndGet();
            return false;
        }
        buffer.add(pending);
        return true;
    }

    /** Moves up to {@code max} buffered events into the batch. */
    private void dequeue(List<Pending> batch, int max) {
        Pending next;
        while (batch.size() < max && (next = buffer.poll()) != null) {
            bufferSize.decrementAndGet();
            batch.add(next);
        }
    }

    /** Events not yet acknowledged by the broker: buffered, or handed to the producer and in flight. */
    public int buffered() {
        return bufferSize.get() + unacknowledged.get();
    }

    private void drain() {
        List<Pending> batch = new ArrayList<>(BATCH);
        long backoffMs = 100;
        while (running) {
            try {
                if (!topicsReady.getAsBoolean()) {
                    TimeUnit.MILLISECONDS.sleep(200);
                    continue;
                }
                dequeue(batch, BATCH);
                if (batch.isEmpty()) {
                    TimeUnit.MILLISECONDS.sleep(DRAIN_INTERVAL_MS);
                    continue;
                }
                boolean full = batch.size() == BATCH;
                int handed = 0;
                try {
                    if (producer == null) {
                        producer = producers.get();
                    }
                    for (Pending pending : batch) {
                        send(pending);
                        handed++;
                    }
                    backoffMs = 100;
                } catch (RuntimeException e) {
                    // no producer could be made yet, or it would not take more (its own buffer full, no metadata
                    // within max.block.ms): keep what it did not take and try again later
                    failures.increment();
                    log.warn("decision events wait: no send possible ({})", e.getClass().getSimpleName());
                    requeue(batch.subList(handed, batch.size()));
                    TimeUnit.MILLISECONDS.sleep(backoffMs);
                    backoffMs = Math.min(5_000, backoffMs * 2);
                }
                batch.clear();
                if (!full) {
                    TimeUnit.MILLISECONDS.sleep(DRAIN_INTERVAL_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void send(Pending pending) {
        RoutingDecision decision = pending.decision();
        // no contentType header: the readers' binder takes JSON by default, and would misread a raw (non-JSON-typed) one
        RecordHeaders headers = new RecordHeaders();
        pending.headers().forEach((name, value) -> headers.add(new RecordHeader(name,
                value.getBytes(StandardCharsets.UTF_8))));
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null,
                decision.key().getBytes(StandardCharsets.UTF_8), EventCodec.encode(decision), headers);
        unacknowledged.incrementAndGet();
        try {
            producer.send(record, acknowledged(pending));
        } catch (RuntimeException e) {
            unacknowledged.decrementAndGet();
            throw e;
        }
    }

    private Callback acknowledged(Pending pending) {
        return (metadata, exception) -> {
            unacknowledged.decrementAndGet();
            if (exception == null) {
                published.increment();
            } else if (exception instanceof RetriableException) {
                // not taken within delivery.timeout.ms (a long outage): back into the buffer, dropped if it is full
                failures.increment();
                requeue(List.of(pending));
            } else {
                failures.increment();
                dropped.increment();
                log.warn("a decision event was refused by the broker for good ({})",
                        exception.getClass().getSimpleName());
            }
        };
    }

    private void requeue(List<Pending> pending) {
        for (Pending p : pending) {
            if (!enqueue(p)) {
                dropped.increment();
            }
        }
    }

    @Override
    public void start() {
        running = true;
        worker = new Thread(this::drain, "decision-publisher");
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Producer<byte[], byte[]> current = producer;
        if (current != null) {
            // what is in flight gets a moment to be acknowledged; what is left is lost with the process, as before
            current.close(java.time.Duration.ofSeconds(5));
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
