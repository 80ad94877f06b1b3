package dev.zerolayer.cache.restore;

import java.util.concurrent.CountDownLatch;

/** Holds the stream consumers back until the state published before a restart has been read back. */
public final class RestoreGate {

    private final CountDownLatch open = new CountDownLatch(1);

    /** A gate that is already open (no restore step, e.g. in unit tests). */
    public static RestoreGate opened() {
        RestoreGate gate = new RestoreGate();
        gate.open();
        return gate;
    }

    public void open() {
        open.countDown();
    }

    public boolean isOpen() {
        return open.getCount() == 0;
    }

    /** Waits until the gate opens (the consumer thread blocks; interrupted: returns with the flag set). */
    public void awaitOpen() {
        try {
            open.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the state restore", e);
        }
    }
}
