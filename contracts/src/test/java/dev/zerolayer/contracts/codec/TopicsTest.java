package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The catalogue names each SPEC topic once, with one writer, and compacted topics carry no retention limit. */
class TopicsTest {

    @Test
    void catalogueHoldsEverySpecTopicOnceWithItsPolicy() {
        Set<String> names = new HashSet<>();
        for (TopicSpec spec : Topics.ALL) {
            assertThat(names.add(spec.name())).as("duplicate " + spec.name()).isTrue();
            assertThat(spec.name()).endsWith(".v1");
            assertThat(spec.readers()).doesNotContain(spec.writer());
            assertThat(spec.kafkaConfigs()).containsEntry("cleanup.policy", spec.cleanupPolicy().kafkaValue());
            if (spec.compacted()) {
                assertThat(spec.kafkaConfigs()).doesNotContainKey("retention.ms");
            }
        }
        assertThat(names).hasSize(10);
        assertThat(Topics.spec(Topics.CACHE_KV_INDEX).compacted()).isTrue();
        assertThat(Topics.spec(Topics.ROUTER_DECISIONS).compacted()).isFalse();
        assertThat(Topics.readBy(Topics.ROUTER)).extracting(TopicSpec::name).containsExactlyInAnyOrder(
                Topics.TELEMETRY_NODE_HEALTH, Topics.COMPLEXITY_MODEL, Topics.CACHE_KV_INDEX, Topics.CACHE_SESSIONS,
                Topics.FALLBACK_POLICY);
        assertThat(Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, "telemetry-service"))
                .isEqualTo("telemetry.samples.v1.dlq.telemetry-service");
    }
}
