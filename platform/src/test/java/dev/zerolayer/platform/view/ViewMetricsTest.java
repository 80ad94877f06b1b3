package dev.zerolayer.platform.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.topics.CleanupPolicy;
import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.platform.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.KafkaNull;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

class ViewMetricsTest {

    @Test
    void stalenessCountsFromStartUntilTheFirstRecordAndFromTheLastUpdateAfter() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        CompactedView<Event> view = new CompactedView<>(new TopicSpec<>("t.v1", "k", Event.class,
                "test", List.of(), CleanupPolicy.COMPACT, 1, Duration.ofDays(1)), null, clock);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ViewMetrics(List.of(view), clock).bindTo(registry);

        // Given nothing arrived, staleness grows from start
        clock.advance(Duration.ofSeconds(7));
        assertThat(registry.get("zerolayer.view.staleness").tag("topic", "t.v1").gauge().value()).isEqualTo(7.0);
        assertThat(registry.get("zerolayer.view.keys").tag("topic", "t.v1").gauge().value()).isZero();

        // When a record (here a tombstone) is applied, then staleness counts from that moment
        @SuppressWarnings({"unchecked", "rawtypes"})
        Message<byte[]> tombstone = (Message) MessageBuilder.withPayload(KafkaNull.INSTANCE)
                .setHeader(KafkaHeaders.RECEIVED_KEY, "k".getBytes(StandardCharsets.UTF_8)).build();
        view.accept(tombstone);
        clock.advance(Duration.ofMillis(1500));
        assertThat(registry.get("zerolayer.view.staleness").tag("topic", "t.v1").gauge().value()).isEqualTo(1.5);
    }
}
