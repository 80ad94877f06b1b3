package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.testing.WriterAudit;
import dev.zerolayer.telemetry.health.HealthTracker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two telemetry-service replicas against the real broker: they split the fleet by sample partition, hand nodes over
 * through the node-health topic when one joins or leaves, and no node's record ever comes from two writers.
 */
@ExtendWith(SharedKafka.class)
class TelemetryReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    private static RunningService replica(String name) {
        return RunningService.start(TelemetryApplication.class, servers(), "zerolayer.replica-id=" + name);
    }

    @Test
    void twoReplicasSplitTheFleetAndTheSurvivorTakesItAllOverWithNoNodeEverWrittenByTwo() throws Exception {
        String prefix = "rep-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> nodes = IntStream.range(0, 12).mapToObj(i -> prefix + i).toList();
        String hot = nodes.get(0);
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            RunningService first = replica("replica-a");
            try {
                // Given one replica, twelve registered nodes and samples every 200 ms, one node saturated throughout
                nodes.forEach(node -> kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(node, "haiku",
                        "haiku-l4", null, "http://127.0.0.1:18100", UpstreamProtocol.ANTHROPIC, "claude-haiku-4-5",
                        8, "2xL4")));
                load.scheduleWithFixedDelay(() -> nodes.forEach(node -> kafka.publish(Topics.TELEMETRY_SAMPLES,
                        TelemetryServiceIT.sample(node, node.equals(hot) ? 0.99 : 0.4))), 0, 200,
                        TimeUnit.MILLISECONDS);
                await().atMost(WAIT).until(() -> runs(first, nodes).size() == nodes.size());
                await().atMost(WAIT).until(() -> first.bean(HealthTracker.class).snapshot(hot)
                        .map(h -> h.state() == NodeState.UNAVAILABLE).orElse(false));

                // When a second replica joins
                try (RunningService second = replica("replica-b")) {

                    // Then they split the nodes: each runs some, together all, none both
                    await().atMost(WAIT).until(() -> {
                        Set<String> a = runs(first, nodes);
                        Set<String> b = runs(second, nodes);
                        Set<String> both = new HashSet<>(a);
                        both.retainAll(b);
                        return !a.isEmpty() && !b.isEmpty() && both.isEmpty() && a.size() + b.size() == nodes.size();
                    });
                    // and either answers for the whole fleet
                    await().atMost(WAIT).untilAsserted(() -> assertThat(second.get("/v1/nodes").body())
                            .contains(nodes.stream().map(n -> "\"" + n + "\"").toArray(String[]::new)));

                    // When the first replica stops
                    first.close();

                    // Then the second runs every node, and every node's latest record is its own
                    await().atMost(WAIT).until(() -> runs(second, nodes).size() == nodes.size());
                    await().atMost(WAIT).untilAsserted(() -> assertThat(audit(kafka, nodes).lastWriters())
                            .hasSize(nodes.size()).allSatisfy((node, writer) -> assertThat(writer.replica())
                                    .isEqualTo("replica-b")));
                }
            } finally {
                load.shutdownNow();
                load.awaitTermination(10, TimeUnit.SECONDS);
                first.close();
            }

            // Then no node's records ever came from two writers, and the saturated node never flashed routable
            // when it changed hands: it was seeded from its last record each time
            WriterAudit audit = audit(kafka, nodes);
            assertThat(audit.records()).isGreaterThan(nodes.size() * 3);
            assertThat(audit.violations()).isEmpty();
            List<NodeHealth> hotRecords = records(kafka, nodes).stream().filter(h -> h.nodeId().equals(hot))
                    .toList();
            int firstUnavailable = IntStream.range(0, hotRecords.size())
                    .filter(i -> hotRecords.get(i).state() == NodeState.UNAVAILABLE).findFirst().orElseThrow();
            assertThat(hotRecords.subList(firstUnavailable, hotRecords.size()))
                    .extracting(NodeHealth::state).containsOnly(NodeState.UNAVAILABLE);
            assertThat(hotRecords.stream().map(NodeHealth::writer).map(Writer::replica).distinct())
                    .containsExactlyInAnyOrder("replica-a", "replica-b");
        }
    }

    private static Set<String> runs(RunningService replica, List<String> nodes) {
        HealthTracker tracker = replica.bean(HealthTracker.class);
        return nodes.stream().filter(tracker::runs).collect(Collectors.toSet());
    }

    /** This test's nodes' records in each key's offset order (a key lives on one partition). */
    private static List<NodeHealth> records(KafkaTestClient kafka, List<String> nodes) {
        Set<String> ours = Set.copyOf(nodes);
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(kafka.readAll(Topics.TELEMETRY_NODE_HEALTH));
        all.sort(Comparator.comparingInt(ConsumerRecord<byte[], byte[]>::partition)
                .thenComparingLong(ConsumerRecord::offset));
        return all.stream().filter(r -> r.key() != null && r.value() != null
                        && ours.contains(new String(r.key(), StandardCharsets.UTF_8)))
                .map(r -> EventCodec.decode(r.value(), NodeHealth.class, new String(r.key(), StandardCharsets.UTF_8)))
                .toList();
    }

    private static WriterAudit audit(KafkaTestClient kafka, List<String> nodes) {
        WriterAudit audit = new WriterAudit();
        records(kafka, nodes).forEach(record -> audit.record(record.nodeId(), record.writer()));
        return audit;
    }
}
