package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The catalogue names each SPEC topic once, with one writer that reads it only where its replicas share it, and
 * compacted topics carry no retention limit.
 */
class TopicsTest {

    @Test
    void catalogueHoldsEverySpecTopicOnceWithItsPolicy() {
        Set<String> names = new HashSet<>();
        for (TopicSpec<?> spec : Topics.ALL) {
            assertThat(names.add(spec.name())).as("duplicate " + spec.name()).isTrue();
            assertThat(spec.name()).endsWith(".v1");
            if (!spec.name().equals(Topics.TELEMETRY_NODE_HEALTH) && !spec.name().equals(Topics.ROUTER_KEY_DEMAND)
                    && !spec.name().equals(Topics.CACHE_KV_HOLDINGS)) {
                // telemetry-service replicas read each other's node-health records (handover, cluster load), router
                // replicas each other's demand per key (rate limits), cache-service's block owners what its node
                // owners hold
                assertThat(spec.readers()).doesNotContain(spec.writer());
            }
            assertThat(spec.kafkaConfigs()).containsEntry("cleanup.policy", spec.cleanupPolicy().kafkaValue());
            if (spec.compacted()) {
                assertThat(spec.kafkaConfigs()).doesNotContainKey("retention.ms").containsKeys("segment.ms",
                        "segment.bytes");
            }
        }
        assertThat(names).hasSize(12);
        assertThat(Topics.spec(Topics.CACHE_KV_INDEX).compacted()).isTrue();
        assertThat(Topics.spec(Topics.ROUTER_DECISIONS).compacted()).isFalse();
        assertThat(Topics.readBy(Topics.ROUTER)).extracting(TopicSpec::name).containsExactlyInAnyOrder(
                Topics.TELEMETRY_NODE_HEALTH, Topics.COMPLEXITY_MODEL, Topics.CACHE_KV_INDEX, Topics.CACHE_SESSIONS,
                Topics.FALLBACK_POLICY, Topics.ROUTER_KEY_DEMAND);
        assertThat(Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, "telemetry-service"))
                .isEqualTo("telemetry.samples.v1.dlq.telemetry-service");
    }

    @Test
    void eachTypedConstantIsTheCatalogueEntryOfItsNameAndCarriesItsEventType() {
        assertThat(Topics.spec(Topics.ROUTER_DECISIONS)).isSameAs(Topics.ROUTER_DECISIONS_TOPIC);
        assertThat(Topics.ROUTER_DECISIONS_TOPIC.eventType()).isEqualTo(RoutingDecision.class);
        assertThat(Topics.spec(Topics.FALLBACK_POLICY)).isSameAs(Topics.FALLBACK_POLICY_TOPIC);
        assertThat(Topics.FALLBACK_POLICY_TOPIC.eventType()).isEqualTo(FallbackPolicy.class);
        assertThat(Topics.TELEMETRY_NODE_HEALTH_TOPIC.eventType()).isEqualTo(NodeHealth.class);
        assertThat(Topics.deadLetterSpec(Topics.CACHE_KV_INDEX, "router-service").eventType())
                .isEqualTo(KvIndexEntry.class);
        // every name constant has its typed spec, and every typed spec is in the catalogue
        for (TopicSpec<?> spec : Topics.ALL) {
            assertThat(typedConstants()).contains(spec);
        }
        assertThat(typedConstants()).hasSameSizeAs(Topics.ALL);
    }

    private static List<TopicSpec<?>> typedConstants() {
        List<TopicSpec<?>> specs = new ArrayList<>();
        for (Field field : Topics.class.getFields()) {
            if (field.getType() == TopicSpec.class && Modifier.isStatic(field.getModifiers())) {
                try {
                    specs.add((TopicSpec<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return specs;
    }
}
