package dev.zerolayer.telemetry.ownership;

import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.telemetry.health.HealthTracker;
import dev.zerolayer.telemetry.restore.PublishedHealth;
import dev.zerolayer.platform.replica.PartitionOwnership;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.binder.kafka.KafkaBindingRebalanceListener;

/**
 * Hands nodes between replicas at each rebalance of the sample binding: a revoked partition's nodes are released before
 * the revocation completes (so before any other replica is assigned it); on an assignment, nodes of partitions no longer
 * held (lost ones too) are released, the node-health topic is read up to now and the newly held partitions' inventory
 * nodes are registered, each seeded from its last record; other nodes of those partitions are seeded at their first
 * sample, as after a restart.
 */
public class NodeHandover implements KafkaBindingRebalanceListener {

    /** The binding whose consumer-group assignment decides which nodes this replica runs. */
    public static final String BINDING = "telemetrySamples-in-0";

    private static final Logger log = LoggerFactory.getLogger(NodeHandover.class);

    private final PartitionOwnership ownership;
    private final HealthTracker tracker;
    private final PublishedHealth published;
    private final Runnable registerInventory;

    /** @param registerInventory registers the configured nodes this replica owns and does not run yet */
    public NodeHandover(PartitionOwnership ownership, HealthTracker tracker, PublishedHealth published,
            Runnable registerInventory) {
        this.ownership = ownership;
        this.tracker = tracker;
        this.published = published;
        this.registerInventory = registerInventory;
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(String bindingName, Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        if (!BINDING.equals(bindingName) || partitions.isEmpty()) {
            return;
        }
        PartitionOwnership.Change change = ownership.revoke(numbers(partitions));
        List<String> released = tracker.release(node -> !ownership.owns(node));
        log.info("partitions {} of {} revoked: released {} nodes", change.dropped(), Topics.TELEMETRY_SAMPLES,
                released.size());
    }

    @Override
    public void onPartitionsAssigned(String bindingName, Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions, boolean initial) {
        if (!BINDING.equals(bindingName)) {
            return;
        }
        if (!published.awaitRestored()) {
            return; // stopping: the partitions go back to the group when the consumer closes
        }
        Set<Integer> assigned = numbers(consumer.assignment());
        int partitionCount = consumer.partitionsFor(Topics.TELEMETRY_SAMPLES).size();
        long generation = consumer.groupMetadata().generationId();
        PartitionOwnership.Change change = ownership.assign(assigned, partitionCount, generation);
        List<String> released = tracker.release(node -> !ownership.owns(node));
        if (!change.gained().isEmpty()) {
            try {
                published.catchUp();
            } catch (RuntimeException e) {
                // the records read at start (or at the last handover) seed the nodes instead
                log.warn("could not read {} up to now after a rebalance: {}", Topics.TELEMETRY_NODE_HEALTH,
                        e.toString());
            }
            registerInventory.run();
        }
        log.info("partitions {} of {} assigned (generation {}): gained {}, released {} nodes", assigned,
                Topics.TELEMETRY_SAMPLES, generation, change.gained(), released.size());
    }

    private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
        return partitions.stream().filter(p -> p.topic().equals(Topics.TELEMETRY_SAMPLES))
                .map(TopicPartition::partition).collect(Collectors.toUnmodifiableSet());
    }
}
