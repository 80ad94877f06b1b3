package dev.zerolayer.cache.nodes;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.ingest.ApproximateBlocks;
import dev.zerolayer.cache.ingest.NodeModes;
import dev.zerolayer.cache.restore.StateRestorer;
import dev.zerolayer.cache.session.SessionTracker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The periodic clean-up: assumed blocks past their time-to-live go; a node DOWN for the grace period loses its blocks;
 * once the time-to-live has passed after a restore, restored blocks of nodes that sent no KV event since the restart
 * are kept only where a decision confirmed them; idle sessions are forgotten.
 */
public class Maintenance implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);

    private final BlockIndex index;
    private final ApproximateBlocks approximate;
    private final NodeModes modes;
    private final NodeStates states;
    private final SessionTracker sessions;
    private final StateRestorer restorer;
    private final Clock clock;
    private final Duration interval;
    private final Duration downGrace;
    private final Duration approximateTtl;
    private volatile boolean restoredSwept;
    private ScheduledExecutorService executor;

    public Maintenance(BlockIndex index, ApproximateBlocks approximate, NodeModes modes, NodeStates states,
            SessionTracker sessions, StateRestorer restorer, Clock clock, Duration interval, Duration downGrace,
            Duration approximateTtl) {
        this.index = index;
        this.approximate = approximate;
        this.modes = modes;
        this.states = states;
        this.sessions = sessions;
        this.restorer = restorer;
        this.clock = clock;
        this.interval = interval;
        this.downGrace = downGrace;
        this.approximateTtl = approximateTtl;
    }

    /** One clean-up round. */
    public void run() {
        Instant now = clock.instant();
        approximate.expire(now);
        for (Map.Entry<String, Instant> down : states.down().entrySet()) {
            if (!down.getValue().plus(downGrace).isAfter(now) && index.blocksOf(down.getKey()) > 0) {
                approximate.discard(down.getKey());
                int dropped = index.clearNode(down.getKey());
                log.info("node {} DOWN since {}: {} blocks dropped from the index", down.getKey(), down.getValue(),
                        dropped);
            }
        }
        Instant restoredAt = restorer == null ? null : restorer.restoredAt();
        if (!restoredSwept && restoredAt != null && !restoredAt.plus(approximateTtl).isAfter(now)) {
            restoredSwept = true;
            for (String node : index.blocksPerNode().keySet()) {
                if (!modes.reports(node)) {
                    java.util.Set<Long> confirmed = approximate.assumedBlocks(node);
                    int dropped = index.retainNode(node, confirmed::contains);
                    if (dropped > 0) {
                        log.info("node {} sent no KV event since the restart: {} restored blocks dropped", node,
                                dropped);
                    }
                }
            }
        }
        sessions.expireIdle(now);
    }

    private void runQuietly() {
        try {
            run();
        } catch (RuntimeException e) {
            log.warn("cache maintenance round failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cache-maintenance");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::runQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
