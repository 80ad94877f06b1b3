package dev.zerolayer.cache.bridge;

import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermTakeover;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The vLLM bridge runs on the replica that leads, and only while it does: at the start of each term, once the term's
 * writer is open (fencing the former leader's relays), the bridge starts (one relay per node, its sequence the relay's
 * own, its events written through the term's writer); when the term ends it stops at once. Retried as a platform
 * {@link TermTakeover} until it succeeds, the term ends or the service stops.
 */
public class BridgeTakeover extends TermTakeover {

    private static final Logger log = LoggerFactory.getLogger(BridgeTakeover.class);

    private final VllmKvBridge bridge;

    public BridgeTakeover(VllmKvBridge bridge, TopicGuard guard, Leadership leadership, TermWriter writer) {
        super("cache-bridge-takeover", guard, Duration.ofSeconds(2), leadership, writer);
        this.bridge = bridge;
    }

    @Override
    protected void termEnded() {
        bridge.stop();
    }

    @Override
    protected void takeOver(long generation) {
        if (!leads(generation)) {
            return;
        }
        bridge.start();
        log.info("the vLLM bridge relays under term {}", generation);
    }
}
