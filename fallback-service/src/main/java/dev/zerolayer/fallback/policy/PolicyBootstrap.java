package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * At the start of each term this replica leads, reads {@code fallback.policy.v1} to its end and reconciles the store
 * with it, which then takes writes, as a platform {@link StartupStep} retried (the pause growing up to the retry
 * interval) until it succeeds, the term ends or the service stops; when the term ends the store stops taking writes
 * at once.
 */
public class PolicyBootstrap implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PolicyBootstrap.class);

    private final PolicyStore store;
    private final Supplier<TopicSnapshot.Snapshot> snapshot;
    private final TopicGuard guard;
    private final Duration retry;
    private final Leadership leadership;
    private StartupStep step;
    private boolean running;

    public PolicyBootstrap(PolicyStore store, Supplier<TopicSnapshot.Snapshot> snapshot, TopicGuard guard,
            Duration retry, Leadership leadership) {
        this.store = store;
        this.snapshot = snapshot;
        this.guard = guard;
        this.retry = retry;
        this.leadership = leadership;
        leadership.onChange(this::onTerm);
    }

    private synchronized void onTerm(Optional<Leadership.Term> term) {
        if (step != null) {
            step.stop();
            step = null;
        }
        if (term.isEmpty()) {
            store.follow();
            return;
        }
        if (!running) {
            return;
        }
        long generation = term.get().generation();
        step = new StartupStep("policy-takeover", guard, () -> takeOver(generation), retry);
        step.start();
    }

    private boolean leads(long generation) {
        return leadership.term().map(t -> t.generation() == generation).orElse(false);
    }

    private void takeOver(long generation) {
        if (!leads(generation)) {
            return;
        }
        TopicSnapshot.Snapshot read = snapshot.get();
        store.initialise(read.latest(), read.highestVersion(), () -> leads(generation));
        log.info("policy store takes writes under term {}: version {} after reading {} record(s)", generation,
                store.active().version(), read.records());
    }

    @Override
    public synchronized void start() {
        running = true;
        leadership.term().ifPresent(term -> onTerm(Optional.of(term)));
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (step != null) {
            step.stop();
            step = null;
        }
        store.follow();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }
}
