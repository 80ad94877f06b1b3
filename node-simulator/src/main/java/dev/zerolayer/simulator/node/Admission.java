package dev.zerolayer.simulator.node;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * A node's concurrency limit: at most {@code capacity} minus the slots a load spike occupies run at once; later requests
 * wait first-in first-out up to {@code maxWaiting}, beyond which they are refused as overloaded. A slot is released
 * exactly once, and a cancelled waiter leaves the queue.
 */
final class Admission {

    /** Thrown (as an error signal) when the waiting queue is full. */
    static final class OverloadedException extends RuntimeException {
        OverloadedException() {
            super("the node's waiting queue is full", null, false, false);
        }
    }

    /** A held slot; {@link #release()} frees it once. */
    final class Slot {
        private final AtomicBoolean released = new AtomicBoolean();

        void release() {
            if (released.compareAndSet(false, true)) {
                Admission.this.release();
            }
        }
    }

    private final int capacity;
    private final int maxWaiting;
    private final IntSupplier blockedSlots;
    private final Deque<Waiter> waiting = new ArrayDeque<>();
    private int running;

    Admission(int capacity, int maxWaiting, IntSupplier blockedSlots) {
        this.capacity = capacity;
        this.maxWaiting = maxWaiting;
        this.blockedSlots = blockedSlots;
    }

    Mono<Slot> acquire() {
        return Mono.create(sink -> {
            boolean admitted;
            synchronized (this) {
                admitted = running < limit();
                if (admitted) {
                    running++;
                } else if (waiting.size() >= maxWaiting) {
                    sink.error(new OverloadedException());
                    return;
                } else {
                    Waiter waiter = new Waiter(sink);
                    waiting.addLast(waiter);
                    sink.onCancel(waiter::cancel);
                }
            }
            if (admitted) {
                sink.success(new Slot());
            }
        });
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.size();
    }

    int capacity() {
        return capacity;
    }

    /** Admits waiters while there is room (after a slot was freed or the blocked slots shrank). */
    void rebalance() {
        while (true) {
            Waiter next;
            synchronized (this) {
                if (running >= limit() || waiting.isEmpty()) {
                    return;
                }
                next = waiting.pollFirst();
                running++;
            }
            next.admit();
        }
    }

    private void release() {
        synchronized (this) {
            running--;
        }
        rebalance();
    }

    private synchronized boolean forget(Waiter waiter) {
        return waiting.remove(waiter);
    }

    /** A queued request: admitted at most once; cancelled after admission, it gives its slot back. */
    private final class Waiter {
        private final MonoSink<Slot> sink;
        private final AtomicBoolean settled = new AtomicBoolean();

        Waiter(MonoSink<Slot> sink) {
            this.sink = sink;
        }

        void admit() {
            Slot slot = new Slot();
            if (settled.compareAndSet(false, true)) {
                sink.success(slot);
            } else {
                slot.release();
            }
        }

        void cancel() {
            if (settled.compareAndSet(false, true)) {
                forget(this);
            }
        }
    }

    private int limit() {
        return Math.max(1, capacity - Math.max(0, blockedSlots.getAsInt()));
    }
}
