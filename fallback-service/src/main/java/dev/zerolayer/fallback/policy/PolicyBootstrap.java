package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermTakeover;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the start of each term this replica leads, once the term's writer is open (fencing the former leader), reads
 * {@code fallback.policy.v1} to its end and reconciles the store with it, which then takes writes, as a platform {@link
 * TermTakeover} retried (the pause growing up to the retry interval) until it succeeds, the term ends or the service
 * stops; when the term ends the store stops taking writes at once.
 */
public class PolicyBootstrap extends TermTakeover {

    private static final Logger log = LoggerFactory.getLogger(PolicyBootstrap.class);

    private final PolicyStore store;
    private final Supplier<TopicSnapshot.Snapshot> snapshot;

    public PolicyBootstrap(PolicyStore store, Supplier<TopicSnapshot.Snapshot> snapshot, TopicGuard guard,
            Duration retry, Leadership leadership, TermWriter writer) {
        super("policy-takeover", guard, retry, leadership, writer);
        this.store = store;
        this.snapshot = snapshot;
    }

    @Override
    protected void takeOver(long generation) {
        TopicSnapshot.Snapshot read = snapshot.get();
        store.initialise(read.latest(), read.highestVersion(), () -> leads(generation));
        log.info("policy store takes writes under term {}: version {} after reading {} record(s)", generation,
                store.active().version(), read.records());
    }

    @Override
    protected void termEnded() {
        store.follow();
    }

    /** The store stops taking writes when the service stops, too. */
    @Override
    public synchronized void stop() {
        super.stop();
        store.follow();
    }
}
