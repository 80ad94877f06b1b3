package dev.zerolayer.cache.ownership;

import dev.zerolayer.cache.blocks.BlockOwners;
import dev.zerolayer.cache.ingest.NodeOwners;
import dev.zerolayer.cache.restore.RestoreGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs this replica's part of publishing the index: once its restore has read back the node states (so that a node
 * DOWN past the grace period is known before any takeover), it joins the node owners and the block owners; on stop it
 * leaves both, node owners first, each publishing what its partitions have left before another replica takes them.
 */
public class IndexOwnership implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(IndexOwnership.class);

    private final NodeOwners nodes;
    private final BlockOwners blocks;
    private final RestoreGate restored;
    private volatile Thread joining;
    private volatile boolean running;

    public IndexOwnership(NodeOwners nodes, BlockOwners blocks, RestoreGate restored) {
        this.nodes = nodes;
        this.blocks = blocks;
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
                    log.info("joined the node owners ({}) and the block owners ({})", NodeOwners.GROUP,
                            BlockOwners.GROUP);
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
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops with the publisher: after the input bindings, before the output bindings. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 4000;
    }
}
