package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Once the service's topics are verified, reads {@code fallback.policy.v1} to its end and initialises the store, as a
 * platform {@link StartupStep}: on any failure (broker away, publication refused) it tries again, the pause growing up
 * to the retry interval, until it succeeds or stops.
 */
public class PolicyBootstrap implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PolicyBootstrap.class);

    private final PolicyStore store;
    private final Supplier<TopicSnapshot.Snapshot> snapshot;
    private final StartupStep step;

    public PolicyBootstrap(PolicyStore store, Supplier<TopicSnapshot.Snapshot> snapshot, TopicGuard guard,
            Duration retry) {
        this.store = store;
        this.snapshot = snapshot;
        this.step = new StartupStep("policy-bootstrap", guard, this::initialise, retry);
    }

    private void initialise() {
        if (store.ready()) {
            return;
        }
        TopicSnapshot.Snapshot read = snapshot.get();
        store.initialise(read.latest(), read.highestVersion());
        log.info("policy store ready: version {} after reading {} record(s)", store.active().version(),
                read.records());
    }

    @Override
    public void start() {
        step.start();
    }

    @Override
    public void stop() {
        step.stop();
    }

    @Override
    public boolean isRunning() {
        return step.isRunning();
    }
}
