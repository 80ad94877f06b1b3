package dev.zerolayer.cache.publication;

import dev.zerolayer.cache.bridge.VllmKvBridge;
import dev.zerolayer.cache.restore.RestoreGate;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermTakeover;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the start of each term this replica leads, once the term's writer is open (fencing the former leader) and its own
 * state is restored, reads {@code cache.sessions.v1} to its end and reconciles the publisher with it, which then writes
 * under the term, and starts the vLLM bridge (one relay per node: its sequence is the relay's own); when the term ends,
 * publication and the bridge stop at once. Retried as a platform {@link TermTakeover} until it succeeds, the term ends
 * or the service stops.
 */
public class CacheTakeover extends TermTakeover {

    private static final Logger log = LoggerFactory.getLogger(CacheTakeover.class);

    private final CachePublisher publisher;
    private final VllmKvBridge bridge;
    private final RestoreGate restored;

    public CacheTakeover(CachePublisher publisher, VllmKvBridge bridge, RestoreGate restored, TopicGuard guard,
            Leadership leadership, TermWriter writer) {
        super("cache-takeover", guard, Duration.ofSeconds(2), leadership, writer);
        this.publisher = publisher;
        this.bridge = bridge;
        this.restored = restored;
    }

    @Override
    protected void termEnded() {
        publisher.follow();
        bridge.stop();
    }

    @Override
    protected void takeOver(long generation) throws InterruptedException {
        if (!restored.awaitOpen(Duration.ofSeconds(1))) {
            throw new IllegalStateException("this replica's own state is not restored yet");
        }
        long started = System.nanoTime();
        CompactedTopicReader reader = CompactedTopicReader.of(guard());
        Map<String, SessionEntry> sessions = new HashMap<>();
        reader.readToEnd(Topics.CACHE_SESSIONS_TOPIC, "cache-service.takeover", (key, entry) -> {
            if (entry == null) {
                sessions.remove(key);
            } else {
                sessions.put(key, entry);
            }
        }, CacheTakeover::skip, () -> leads(generation));
        Writer stamp = leadership().writer().orElse(null);
        if (stamp == null || stamp.generation() != generation
                || !publisher.lead(stamp, sessions, () -> leads(generation))) {
            return;
        }
        bridge.start();
        log.info("cache publication under term {} after reading {} sessions in {} ms", generation, sessions.size(),
                (System.nanoTime() - started) / 1_000_000);
    }

    private static void skip(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record,
            RuntimeException e) {
        if (!(e instanceof InvalidEventException)) {
            throw e;
        }
        log.warn("takeover skipped unreadable record {} partition {} offset {}: {}", record.topic(),
                record.partition(), record.offset(), e.getMessage());
    }
}
