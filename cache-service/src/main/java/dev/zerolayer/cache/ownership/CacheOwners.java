package dev.zerolayer.cache.ownership;

import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.cache.session.SessionOwners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs this replica's partition owners: once its restore has read back the node states and the sessions (so that a
 * node DOWN past the grace period is known before any takeover), it joins the node owners, the block owners and the
 * session owners; on stop it leaves them, node owners first, each publishing what its partitions have left before
 * another replica takes them.
 */
public class CacheOwners implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CacheOwners.class);

    private final NodeOwners nodes;
    private final BlockOwners blocks;
    private final SessionOwners sessions;
    private final RestoreGate restored;
    private volatile Thread joining;
    private volatile boolean running;

    public CacheOwners(NodeOwners nodes, BlockOwners blocks, SessionOwners sessions, RestoreGate restored) {
        this.nodes = nodes;
        this.blocks = blocks;
        this.sessions = sessions;
        this.restored = restored;
    }

    @Override
    public synchronized void start() {
        running = true;
        Thread join = new Thread(() -> {
            try {
                restored.awaitOpen();
            } catch (IllegalStateException e) {
                return; // stopped before the restore ended
            }
            synchronized (this) {
                if (running) {
                    nodes.start();
                    blocks.start();
                    sessions.start();
                    log.info("joined the node owners ({}), the block owners ({}) and the session owners ({})",
                            NodeOwners.GROUP, BlockOwners.GROUP, SessionOwners.GROUP);
                }
            }
        }, "cache-index-owners-join");
        join.setDaemon(true);
        joining = join;
        join.start();
    }

    @Override
    public void stop() {
        Thread join;
        synchronized (this) {
            running = false;
            join = joining;
        }
        if (join != null) {
            join.interrupt();
        }
        nodes.close();
        blocks.close();
        sessions.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops after the input bindings (phase MAX_VALUE - 3000) and before the output bindings (MIN_VALUE + 1000). */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 4000;
    }
}
