package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.topics.KafkaClientSecurity;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ClassicGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import reactor.core.publisher.Mono;

/**
 * The current leader of an election as the group coordinator knows it: the announcement in the group's last commit,
 * trusted only while the member that holds partition 0 is the replica it names (a dead leader's announcement, or one
 * whose successor has not announced itself yet, names nobody).
 */
public final class LeaderLocator implements AutoCloseable {

    private final String group;
    private final TopicPartition electing;
    private final TopicGuard guard;
    private final Duration timeout;
    private volatile Admin admin;
    private volatile boolean closed;

    public LeaderLocator(Leadership leadership, TopicGuard guard, Duration timeout) {
        this.group = leadership.group();
        this.electing = new TopicPartition(leadership.topic(), 0);
        this.guard = guard;
        this.timeout = timeout;
    }

    /** The leader now, or empty when none is known (no announcement, or its replica no longer holds the term). */
    public Mono<LeaderAnnouncement> leader() {
        return Mono.defer(() -> {
            Admin client = admin();
            if (client == null) {
                return Mono.empty(); // closed
            }
            Mono<Optional<LeaderAnnouncement>> announced = Mono.fromCompletionStage(client
                            .listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().toCompletionStage())
                    .map(offsets -> Optional.ofNullable(offsets.get(electing)).map(OffsetAndMetadata::metadata)
                            .flatMap(LeaderAnnouncement::parse));
            // the election runs the classic protocol: describing it as a consumer group would try the new protocol's
            // request first and fall back after a retry backoff (about 100 ms a lookup)
            Mono<Optional<String>> holder = Mono.fromCompletionStage(client.describeClassicGroups(List.of(group))
                            .describedGroups().get(group).toCompletionStage())
                    .map(this::holderOfPartitionZero);
            return Mono.zip(announced, holder).flatMap(both -> Mono.justOrEmpty(both.getT1()
                    .filter(a -> both.getT2().filter(Leadership.clientId(group, a.replica())::equals).isPresent())));
        }).timeout(timeout);
    }

    private Optional<String> holderOfPartitionZero(ClassicGroupDescription description) {
        return description.members().stream()
                .filter(member -> member.assignment().topicPartitions().contains(electing))
                .map(MemberDescription::clientId).findFirst();
    }

    private Admin admin() {
        Admin client = admin;
        if (client == null) {
            synchronized (this) {
                client = admin;
                if (client == null && !closed) {
                    int millis = (int) timeout.toMillis();
                    Map<String, Object> config = KafkaClientSecurity.adminConfig(guard.bootstrapServers(),
                            guard.clientProperties(), millis, millis);
                    client = Admin.create(config);
                    admin = client;
                }
            }
        }
        return client;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
            admin = null;
        }
    }
}
