package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.KraftBroker;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.ProvisionTopics;
import dev.zerolayer.platform.topics.TopicProvisioner;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.state.ViewsLoaded;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leaders write in transactions, so a state topic ends in a commit marker: a router started on such topics still
 * becomes ready (its catch-up looks past the marker) and holds what the committed transactions wrote, never what a
 * fenced leader's write would have.
 */
class TransactionalStateIT {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void aRouterBecomesReadyOnTopicsThatEndInACommitMarkerAndReadsOnlyCommittedVersions() throws Exception {
        try (KraftBroker broker = KraftBroker.create(dir.resolve("kafka")).start()) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                // as the services' topic guard does: a fresh broker may not know a topic it just created yet
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                    new TopicProvisioner(admin, (short) 1).ensure(ProvisionTopics.allWithDeadLetters());
                    return true;
                });
            }
            // Given policy version 2 written by the leader of term 1, then version 3 by a leader paused past its
            // term and fenced by term 2, whose leader then wrote version 3 itself: the topic ends in a commit marker
            TermWriter term1 = writer(broker);
            term1.open(1);
            assertThat(term1.publish(Topics.FALLBACK_POLICY, policy(2, "term-1", 1)))
                    .isEqualTo(TermWriter.Outcome.COMMITTED);
            TermWriter term2 = writer(broker);
            term2.open(2);
            assertThat(term1.publish(Topics.FALLBACK_POLICY, policy(3, "term-1 (fenced)", 1)))
                    .isEqualTo(TermWriter.Outcome.FENCED);
            assertThat(term2.publish(Topics.FALLBACK_POLICY, policy(3, "term-2", 2)))
                    .isEqualTo(TermWriter.Outcome.COMMITTED);
            term2.close();

            // When a router starts on it
            try (RunningService router = RunningService.start(RouterApplication.class, broker.bootstrapServers(),
                    "zerolayer.router.warm-up.enabled=false")) {
                // Then it becomes ready: every view read up to the end, the marker past its group's committed offset
                ViewsLoaded views = router.bean(ViewsLoaded.class);
                await().atMost(Duration.ofSeconds(90)).until(views::loaded);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> router.get("/actuator/health/readiness").statusCode() == 200);
                // and it holds version 3 as term 2's leader wrote it
                CompactedView<FallbackPolicy> policy = router.bean("fallbackPolicy", CompactedView.class);
                FallbackPolicy active = policy.get(FallbackPolicy.KEY).orElseThrow();
                assertThat(active.version()).isEqualTo(3);
                assertThat(active.updatedBy()).isEqualTo("term-2");
            }
        }
    }

    private static TermWriter writer(KraftBroker broker) {
        return new TermWriter("fallback-service.leader", broker.bootstrapServers(), Map.of(), Duration.ofSeconds(10),
                config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
                new SimpleMeterRegistry());
    }

    private static FallbackPolicy policy(long version, String by, long term) {
        return new FallbackPolicy(EventChecks.newEventId(), Instant.now(), FallbackPolicy.SCHEMA_VERSION, version, by,
                PolicyDocument.defaults(), new Writer("it-replica-" + term, term));
    }
}
