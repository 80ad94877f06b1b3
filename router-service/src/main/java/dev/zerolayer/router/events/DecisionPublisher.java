package dev.zerolayer.router.events;

import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.platform.topics.TopicGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import dev.zerolayer.platform.events.EventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Decision events go into a bounded in-memory buffer that a background thread drains to {@code router.decisions.v1}
 * (binding {@value #BINDING}, keyed by request id) once the topics are verified; a full buffer drops and counts, a
 * failed send keeps the event and retries with backoff, so a request is never delayed or failed by publishing.
 */
public class DecisionPublisher implements SmartLifecycle {

    static final String BINDING = "decisions-out-0";

    private final BlockingQueue<Pending> buffer;
    private final EventPublisher events;
    private final TopicGuard guard;
    private final Counter dropped;
    private final Tracer tracer;
    private volatile boolean running;
    private Thread worker;

    public DecisionPublisher(int capacity, EventPublisher events, TopicGuard guard, MeterRegistry meters) {
        this(capacity, events, guard, meters, null);
    }

    public DecisionPublisher(int capacity, EventPublisher events, TopicGuard guard, MeterRegistry meters,
            Tracer tracer) {
        this.tracer = tracer;
        this.buffer = new ArrayBlockingQueue<>(capacity);
        this.events = events;
        this.guard = guard;
        this.dropped = Counter.builder("zerolayer_router_events_dropped").description("decision events dropped: buffer full")
                .register(meters);
        Gauge.builder("zerolayer_router_events_buffered", buffer, BlockingQueue::size).register(meters);
    }

    /** A decision event, the trace context headers it carries to Kafka, and the request span to send it under. */
    private record Pending(RoutingDecision decision, Map<String, String> headers, Span span) {
    }

    /** Queues the event; never blocks. Returns false when the buffer was full and the event was dropped. */
    public boolean offer(RoutingDecision decision) {
        return offer(decision, Map.of(), null);
    }

    /**
     * Queues the event with the request's trace context; never blocks. It is sent with the request span current, so
     * any messaging instrumentation continues the same trace instead of starting one.
     */
    public boolean offer(RoutingDecision decision, Map<String, String> headers, Span span) {
        boolean queued = buffer.offer(new Pending(decision, Map.copyOf(headers), span));
        if (!queued) {
            dropped.increment();
        }
        return queued;
    }

    public int buffered() {
        return buffer.size();
    }

    private void drain() {
        long backoffMs = 100;
        while (running) {
            try {
                if (!guard.ready()) {
                    TimeUnit.MILLISECONDS.sleep(200);
                    continue;
                }
                Pending next = buffer.poll(500, TimeUnit.MILLISECONDS);
                if (next == null) {
                    continue;
                }
                while (running && !send(next)) {
                    TimeUnit.MILLISECONDS.sleep(backoffMs);
                    backoffMs = Math.min(5_000, backoffMs * 2);
                }
                backoffMs = 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean send(Pending pending) {
        if (tracer == null || pending.span() == null) {
            return events.publish(BINDING, pending.decision(), pending.headers());
        }
        try (Tracer.SpanInScope ignored = tracer.withSpan(pending.span())) {
            return events.publish(BINDING, pending.decision(), pending.headers());
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
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
