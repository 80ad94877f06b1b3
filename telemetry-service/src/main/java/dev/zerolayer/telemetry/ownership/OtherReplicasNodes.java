package dev.zerolayer.telemetry.ownership;

import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.InboundRecord;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The node-health records of nodes other replicas run, read in batches by every replica (a group of its own, from the
 * beginning): a record of a node this replica runs is passed over by its key, undecoded (it was just published here);
 * the others give their clusters' load and answer for their nodes in {@code /v1/nodes}; a tombstone forgets its node;
 * an unreadable record is dead-lettered without stopping the batch.
 */
public class OtherReplicasNodes implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final HealthTracker tracker;
    private final Map<String, NodeHealth> latest = new ConcurrentHashMap<>();

    public OtherReplicasNodes(EventReader reader, DeadLetters deadLetters, HealthTracker tracker) {
        this.reader = reader;
        this.deadLetters = deadLetters;
        this.tracker = tracker;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.TELEMETRY_NODE_HEALTH_TOPIC, reader, deadLetters, this::passOver, record -> {
            latest.put(record.nodeId(), record);
            tracker.observeForeign(record);
        });
    }

    private boolean passOver(InboundRecord record) {
        if (record.key() != null && record.payload() == null) {
            latest.remove(record.key());
            return true;
        }
        return record.key() != null && tracker.runs(record.key());
    }

    /** The last record of a node this replica does not run. */
    public Optional<NodeHealth> get(String nodeId) {
        return tracker.runs(nodeId) ? Optional.empty() : Optional.ofNullable(latest.get(nodeId));
    }

    /** The last records of every node this replica does not run. */
    public Collection<NodeHealth> all() {
        return latest.values().stream().filter(record -> !tracker.runs(record.nodeId())).toList();
    }
}
