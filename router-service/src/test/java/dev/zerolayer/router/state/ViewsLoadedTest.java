package dev.zerolayer.router.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Status;

/**
 * A view is loaded when every partition's committed offset reached its end offset of the start, or it held nothing;
 * readiness refuses traffic until every view is loaded.
 */
class ViewsLoadedTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @Test
    void everyPartitionMustReachItsEndOffsetOfTheStart() {
        Map<TopicPartition, Long> end = Map.of(P0, 10L, P1, 4L);
        Map<TopicPartition, Long> earliest = Map.of(P0, 0L, P1, 0L);
        assertThat(ViewsLoaded.caughtUp(end, earliest, Map.of())).isFalse();
        assertThat(ViewsLoaded.caughtUp(end, earliest, Map.of(P0, new OffsetAndMetadata(10)))).isFalse();
        assertThat(ViewsLoaded.caughtUp(end, earliest,
                Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(3)))).isFalse();
        assertThat(ViewsLoaded.caughtUp(end, earliest,
                Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(4)))).isTrue();
        // records written after the start do not move the target
        assertThat(ViewsLoaded.caughtUp(end, earliest,
                Map.of(P0, new OffsetAndMetadata(25), P1, new OffsetAndMetadata(9)))).isTrue();
    }

    @Test
    void aPartitionThatHeldNothingAtTheStartIsDone() {
        // empty, or everything before the end already deleted
        assertThat(ViewsLoaded.caughtUp(Map.of(P0, 0L, P1, 7L), Map.of(P0, 0L, P1, 7L), Map.of())).isTrue();
        assertThat(ViewsLoaded.caughtUp(Map.of(P0, 0L, P1, 7L), Map.of(P0, 0L, P1, 5L), Map.of())).isFalse();
    }

    @Test
    void readinessRefusesTrafficUntilTheViewsAreLoaded() {
        ViewsLoaded views = new ViewsLoaded(null, () -> Map.of("t", "g"), Clock.systemUTC());
        ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
        availability.onApplicationEvent(new AvailabilityChangeEvent<>(this, ReadinessState.ACCEPTING_TRAFFIC));
        var readiness = views.readiness(availability);

        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(views.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(views.health().getDetails()).containsKey("waitingFor");

        views.markLoaded(Duration.ofMillis(1234));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
        assertThat(views.health().getDetails()).containsEntry("loadedAfterMs", 1234L);

        // loaded views do not make a refusing application ready
        availability.onApplicationEvent(new AvailabilityChangeEvent<>(this, ReadinessState.REFUSING_TRAFFIC));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    }

    @Test
    void readinessAlsoWaitsForAnotherGateSuchAsTheWarmUp() {
        ViewsLoaded views = new ViewsLoaded(null, () -> Map.of("t", "g"), Clock.systemUTC());
        ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
        availability.onApplicationEvent(new AvailabilityChangeEvent<>(this, ReadinessState.ACCEPTING_TRAFFIC));
        java.util.concurrent.atomic.AtomicBoolean warmedUp = new java.util.concurrent.atomic.AtomicBoolean();
        var readiness = views.readiness(availability, warmedUp::get);

        views.markLoaded(Duration.ofMillis(10));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);

        warmedUp.set(true);
        assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
    }
}
