package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Once the service's topics are verified, reads {@code fallback.policy.v1} to its end and initialises the store; on
 * any failure (broker away, publication refused) it tries again after the retry interval until it succeeds or stops.
 */
public class PolicyBootstrap implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PolicyBootstrap.class);

    private final PolicyStore store;
    private final Supplier<TopicSnapshot.Snapshot> snapshot;
    private final TopicGuard guard;
    private final Duration retry;
    private volatile Thread thread;

    public PolicyBootstrap(PolicyStore store, Supplier<TopicSnapshot.Snapshot> snapshot, TopicGuard guard,
            Duration retry) {
        this.store = store;
        this.snapshot = snapshot;
        this.guard = guard;
        this.retry = retry;
    }

    @Override
    public synchronized void start() {
        thread = new Thread(this::run, "policy-bootstrap");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted() && !store.ready()) {
            try {
                if (guard.ready()) {
                    TopicSnapshot.Snapshot read = snapshot.get();
                    store.initialise(read.latest(), read.highestVersion());
                    log.info("policy store ready: version {} after reading {} record(s)", store.active().version(),
                            read.records());
                    return;
                }
            } catch (RuntimeException e) {
                log.warn("policy store not initialised yet ({}); retrying in {}", e.getMessage(), retry);
            }
            try {
                Thread.sleep(guard.ready() ? retry.toMillis() : Math.min(retry.toMillis(), 200));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.interrupt();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
