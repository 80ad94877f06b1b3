package dev.zerolayer.router.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.LongSupplier;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxOperator;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.Context;

/**
 * A stream of chunks that fails with a {@link TimeoutException} when its first chunk takes longer than the first limit,
 * a later one comes more than the gap after the one before, or one is still awaited at the deadline: one timer at a
 * time, moved on only when it fires (a chunk just notes its time), instead of a timer set and cancelled per chunk.
 */
final class ChunkDeadlines<T> extends FluxOperator<T, T> {

    private final long firstNanos;
    private final long gapNanos;
    private final long deadlineNanos;
    private final Scheduler timers;
    private final LongSupplier clock;

    /**
     * @param firstNanos how long the first chunk may take
     * @param gapNanos how long any later chunk may take after the one before
     * @param deadlineNanos the time on {@code clock} after which no chunk is awaited any more
     * @param clock nanoseconds as {@link System#nanoTime()} counts them (the timers' own clock in tests)
     */
    ChunkDeadlines(Flux<T> source, long firstNanos, long gapNanos, long deadlineNanos, Scheduler timers,
            LongSupplier clock) {
        super(source);
        this.firstNanos = Math.max(1, firstNanos);
        this.gapNanos = Math.max(1, gapNanos);
        this.deadlineNanos = deadlineNanos;
        this.timers = timers;
        this.clock = clock;
    }

    /** On {@link System#nanoTime()}. */
    ChunkDeadlines(Flux<T> source, long firstNanos, long gapNanos, long deadlineNanos, Scheduler timers) {
        this(source, firstNanos, gapNanos, deadlineNanos, timers, System::nanoTime);
    }

    long now() {
        return clock.getAsLong();
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        source.subscribe(new Watch<>(actual, this));
    }

    private static final class Watch<T> implements CoreSubscriber<T>, Subscription {

        private static final AtomicIntegerFieldUpdater<Watch> DONE =
                AtomicIntegerFieldUpdater.newUpdater(Watch.class, "done");
        /** {@link #done}: no signal passing now. */
        private static final int OPEN = 0;
        /** {@link #done}: terminated, cancelled or timed out. */
        private static final int CLOSED = 1;
        /** {@link #done}: a chunk passing on, which a timer firing meanwhile must not interleave with. */
        private static final int PASSING = 2;

        private final CoreSubscriber<? super T> actual;
        private final ChunkDeadlines<T> limits;
        private final long subscribedAt;
        private Subscription upstream;
        private volatile long lastChunkAt;
        private volatile boolean gotOne;
        private volatile Disposable timer;
        private volatile int done;

        Watch(CoreSubscriber<? super T> actual, ChunkDeadlines<T> limits) {
            this.actual = actual;
            this.limits = limits;
            this.subscribedAt = limits.now();
        }

        @Override
        public Context currentContext() {
            return actual.currentContext();
        }

        @Override
        public void onSubscribe(Subscription s) {
            upstream = s;
            actual.onSubscribe(this);
            arm(subscribedAt + limits.firstNanos);
        }

        @Override
        public void onNext(T chunk) {
            if (!DONE.compareAndSet(this, OPEN, PASSING)) {
                return;
            }
            lastChunkAt = limits.now();
            gotOne = true;
            actual.onNext(chunk);
            DONE.compareAndSet(this, PASSING, OPEN);
        }

        @Override
        public void onError(Throwable t) {
            if (DONE.compareAndSet(this, OPEN, CLOSED)) {
                disarm();
                actual.onError(t);
            }
        }

        @Override
        public void onComplete() {
            if (DONE.compareAndSet(this, OPEN, CLOSED)) {
                disarm();
                actual.onComplete();
            }
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            DONE.set(this, CLOSED);
            disarm();
            upstream.cancel();
        }

        /** When the next chunk is due by now: the first within its limit, a later one within the gap and the deadline. */
        private long due() {
            return gotOne ? Math.min(lastChunkAt + limits.gapNanos, limits.deadlineNanos)
                    : subscribedAt + limits.firstNanos;
        }

        private void arm(long at) {
            if (done == CLOSED) {
                return;
            }
            timer = limits.timers.schedule(this::check, Math.max(1, at - limits.now()), TimeUnit.NANOSECONDS);
            if (done == CLOSED) {
                disarm();
            }
        }

        private void check() {
            long due = due();
            if (done == CLOSED) {
                return;
            }
            if (limits.now() < due) {
                arm(due);
            } else if (DONE.compareAndSet(this, OPEN, CLOSED)) {
                upstream.cancel();
                actual.onError(new TimeoutException(gotOne ? "no chunk within the gap" : "no first chunk in time"));
            } else if (done == PASSING) {
                // a chunk is passing on this very moment (on another thread): the gap starts again from it
                arm(Math.min(limits.now() + limits.gapNanos, limits.deadlineNanos));
            }
        }

        private void disarm() {
            Disposable current = timer;
            if (current != null) {
                current.dispose();
            }
        }
    }
}
