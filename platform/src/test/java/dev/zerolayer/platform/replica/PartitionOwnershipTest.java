package dev.zerolayer.platform.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class PartitionOwnershipTest {

    @Test
    void aNodeIsKeyedToThePartitionKafkasOwnPartitionerGivesItsId() {
        for (String node : List.of("sonnet-1", "haiku-7", "opus-a100-3", "n-" + "x".repeat(40), "節点-1")) {
            for (int partitions : new int[] {1, 3, 6, 12}) {
                assertThat(PartitionOwnership.partitionOf(node, partitions))
                        .as("%s over %d partitions", node, partitions)
                        .isEqualTo(BuiltInPartitioner.partitionForKey(node.getBytes(StandardCharsets.UTF_8),
                                partitions));
            }
        }
        assertThatThrownBy(() -> PartitionOwnership.partitionOf("a", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void twoReplicasSplittingThePartitionsOwnEveryNodeExactlyOnce() {
        PartitionOwnership first = new PartitionOwnership("a");
        PartitionOwnership second = new PartitionOwnership("b");
        first.assign(Set.of(0, 2, 4), 6, 5);
        second.assign(Set.of(1, 3, 5), 6, 5);

        Map<String, Integer> owners = new HashMap<>();
        IntStream.range(0, 500).mapToObj(i -> "node-" + i).forEach(node -> owners.put(node,
                (first.owns(node) ? 1 : 0) + (second.owns(node) ? 1 : 0)));

        assertThat(owners.values()).containsOnly(1);
        assertThat(first.writer().replica()).isEqualTo("a");
        assertThat(first.writer().generation()).isEqualTo(5);
    }

    @Test
    void nothingIsOwnedBeforeTheFirstAssignmentAndARevocationGivesPartitionsUpAtOnce() {
        PartitionOwnership ownership = new PartitionOwnership("a");
        String node = "sonnet-1";
        int partition = PartitionOwnership.partitionOf(node, 6);
        assertThat(ownership.owns(node)).isFalse();

        PartitionOwnership.Change assigned = ownership.assign(Set.of(partition), 6, 3);
        assertThat(assigned.gained()).containsExactly(partition);
        assertThat(ownership.owns(node)).isTrue();

        PartitionOwnership.Change revoked = ownership.revoke(Set.of(partition, (partition + 1) % 6));
        assertThat(revoked.dropped()).containsExactly(partition);
        assertThat(ownership.owns(node)).isFalse();
        assertThat(ownership.writer().generation()).isEqualTo(3);
    }

    @Test
    void aWholeAssignmentDropsPartitionsLostWithoutARevocation() {
        PartitionOwnership ownership = new PartitionOwnership("a");
        ownership.assign(Set.of(0, 1, 2), 6, 4);

        PartitionOwnership.Change next = ownership.assign(Set.of(2, 3), 6, 9);

        assertThat(next.gained()).containsExactly(3);
        assertThat(next.dropped()).containsExactlyInAnyOrder(0, 1);
        assertThat(ownership.writer().generation()).isEqualTo(9);
    }

    @Test
    void aChangedPartitionCountDropsAndGainsEverything() {
        PartitionOwnership ownership = new PartitionOwnership("a");
        ownership.assign(Set.of(0, 1), 3, 1);

        PartitionOwnership.Change next = ownership.assign(Set.of(0, 1, 2), 6, 2);

        assertThat(next.dropped()).containsExactlyInAnyOrder(0, 1);
        assertThat(next.gained()).containsExactlyInAnyOrder(0, 1, 2);
    }
}
