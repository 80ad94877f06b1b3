package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The first chunk within its limit, each later one within the gap and the deadline; one timer moved on lazily. */
class ChunkDeadlinesTest {

    private static final long MS = 1_000_000L;

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final AtomicInteger timersSet = new AtomicInteger();
    private final Scheduler counted = new Scheduler() {
        @Override
        public Disposable schedule(Runnable task) {
            return time.schedule(task);
        }

        @Override
        public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
            timersSet.incrementAndGet();
            return time.schedule(task, delay, unit);
        }

        @Override
        public Worker createWorker() {
            return time.createWorker();
        }
    };

    private Flux<Integer> watched(Flux<Integer> source, long firstMs, long gapMs, long deadlineMs) {
        return new ChunkDeadlines<>(source, firstMs * MS, gapMs * MS, time.now(TimeUnit.NANOSECONDS)
                + deadlineMs * MS, counted, () -> time.now(TimeUnit.NANOSECONDS));
    }

    @Test
    void failsWhenTheFirstChunkIsLate() {
        Sinks.Many<Integer> node = Sinks.many().unicast().onBackpressureBuffer();

        StepVerifier.withVirtualTime(() -> watched(node.asFlux(), 100, 30, 10_000), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(99))
                .then(() -> time.advanceTimeBy(Duration.ofMillis(1)))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TimeoutException.class)
                        .hasMessage("no first chunk in time"))
                .verify(Duration.ofSeconds(5));
        assertThat(node.currentSubscriberCount()).as("the node's stream is cancelled").isZero();
    }

    @Test
    void measuresEachGapFromTheChunkBeforeIt() {
        Sinks.Many<Integer> node = Sinks.many().unicast().onBackpressureBuffer();

        StepVerifier.withVirtualTime(() -> watched(node.asFlux(), 100, 30, 10_000), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .then(() -> time.advanceTimeBy(Duration.ofMillis(90)))
                .then(() -> node.tryEmitNext(1))
                .expectNext(1)
                .then(() -> time.advanceTimeBy(Duration.ofMillis(29)))
                .then(() -> node.tryEmitNext(2))
                .expectNext(2)
                .expectNoEvent(Duration.ofMillis(29))
                .then(() -> time.advanceTimeBy(Duration.ofMillis(1)))
                .expectErrorSatisfies(e -> assertThat(e).hasMessage("no chunk within the gap"))
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void theDeadlineCutsAGapShort() {
        Sinks.Many<Integer> node = Sinks.many().unicast().onBackpressureBuffer();

        StepVerifier.withVirtualTime(() -> watched(node.asFlux(), 100, 1_000, 150), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .then(() -> time.advanceTimeBy(Duration.ofMillis(10)))
                .then(() -> node.tryEmitNext(1))
                .expectNext(1)
                .expectNoEvent(Duration.ofMillis(139))
                .then(() -> time.advanceTimeBy(Duration.ofMillis(1)))
                .expectError(TimeoutException.class)
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void aSteadyStreamMovesOneTimerOnOnlyWhenItFiresAndLeavesNoneBehind() {
        Sinks.Many<Integer> node = Sinks.many().unicast().onBackpressureBuffer();
        StepVerifier.Step<Integer> step = StepVerifier
                .withVirtualTime(() -> watched(node.asFlux(), 100, 50, 10_000), () -> time, Long.MAX_VALUE)
                .expectSubscription();
        for (int i = 0; i < 200; i++) {
            int chunk = i;
            step = step.then(() -> time.advanceTimeBy(Duration.ofMillis(5))).then(() -> node.tryEmitNext(chunk))
                    .expectNext(chunk);
        }

        step.then(node::tryEmitComplete).verifyComplete();

        assertThat(timersSet.get()).as("200 chunks over 1 s with a 50-ms gap").isLessThanOrEqualTo(25);
        time.advanceTimeBy(Duration.ofSeconds(60));
    }

    @Test
    void aCancelledStreamStopsItsTimer() {
        Sinks.Many<Integer> node = Sinks.many().unicast().onBackpressureBuffer();
        AtomicInteger errors = new AtomicInteger();

        Disposable subscription = watched(node.asFlux(), 100, 50, 10_000)
                .subscribe(chunk -> { }, e -> errors.incrementAndGet());
        subscription.dispose();
        time.advanceTimeBy(Duration.ofSeconds(1));

        assertThat(errors.get()).as("no timeout after the cancel").isZero();
        assertThat(node.currentSubscriberCount()).isZero();
    }
}
