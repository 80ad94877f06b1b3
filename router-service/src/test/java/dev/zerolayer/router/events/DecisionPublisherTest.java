package dev.zerolayer.router.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The publisher sends nothing before the topics are verified, sends each event keyed by request id with its trace
 * headers, puts an event the broker did not take in time back into the buffer, drops (and counts) what the broker
 * refuses for good and what does not fit the buffer, and counts every unacknowledged event as buffered.
 */
class DecisionPublisherTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final AtomicBoolean topicsReady = new AtomicBoolean();
    private DecisionPublisher publisher;

    @AfterEach
    void stop() {
        if (publisher != null) {
            publisher.stop();
        }
    }

    private DecisionPublisher start(int capacity) {
        publisher = new DecisionPublisher(capacity, "router.decisions.v1", () -> producer, topicsReady::get, meters);
        publisher.start();
        return publisher;
    }

    static RoutingDecision decision(String requestId) {
        return RoutingDecision.builder().eventId(UUID.randomUUID().toString()).occurredAt(Instant.now())
                .requestId(requestId).sessionHash("s").apiKeyId("k").clientApi("anthropic")
                .requestedModel("claude-haiku-4-5").tier("haiku").cluster("c").node("n").nodesTried(List.of("n"))
                .tokenCount(12).complexityScore(0.1).complexityModelVersion("m1").policyVersion(1).routeTimeMicros(90)
                .ttfbMillis(20).chunkIntervalVarianceMs2(0.5).totalLatencyMillis(100).inputTokens(12).outputTokens(30)
                .status(DecisionStatus.OK).httpStatus(200).build();
    }

    private double counter(String name) {
        return meters.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void sendsOnlyOnceTheTopicsAreVerifiedKeyedByRequestIdWithTheTraceHeaders() {
        DecisionPublisher publisher = start(10);

        // Given topics not yet verified, when an event is offered, then it waits in the buffer
        assertThat(publisher.offer(decision("req-1"), Map.of("traceparent", "00-abc-def-01"))).isTrue();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> producer.history().isEmpty());
        assertThat(publisher.buffered()).isEqualTo(1);

        // When the topics are verified, then it is sent as JSON keyed by request id, with the trace header
        topicsReady.set(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 1);
        var record = producer.history().get(0);
        assertThat(record.topic()).isEqualTo("router.decisions.v1");
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("req-1");
        assertThat(EventCodec.decode(record.value(), RoutingDecision.class).requestId()).isEqualTo("req-1");
        assertThat(new String(record.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                .isEqualTo("00-abc-def-01");
        // and it counts as buffered until the broker acknowledges it
        assertThat(publisher.buffered()).isEqualTo(1);
        producer.completeNext();
        await().atMost(Duration.ofSeconds(2)).until(() -> publisher.buffered() == 0);
        assertThat(counter("zerolayer.events.published")).isEqualTo(1);
    }

    @Test
    void anEventTheBrokerDidNotTakeInTimeIsSentAgainAndARefusedOneIsDroppedAndCounted() {
        topicsReady.set(true);
        DecisionPublisher publisher = start(10);
        publisher.offer(decision("req-timeout"));
        publisher.offer(decision("req-too-large"));
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 2);

        // When the first send times out (a long outage) and the second is refused for good
        producer.errorNext(new TimeoutException("expired"));
        producer.errorNext(new RecordTooLargeException("too large"));

        // Then the first is sent again and the second is dropped and counted
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 3);
        assertThat(new String(producer.history().get(2).key(), StandardCharsets.UTF_8)).isEqualTo("req-timeout");
        assertThat(counter("zerolayer_router_events_dropped")).isEqualTo(1);
        assertThat(counter("zerolayer.events.publish.failures")).isEqualTo(2);
        producer.completeNext();
        await().atMost(Duration.ofSeconds(2)).until(() -> publisher.buffered() == 0);
    }

    @Test
    void aProducerThatCannotBeMadeYetIsTriedAgainAndNothingIsLost() {
        topicsReady.set(true);
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        publisher = new DecisionPublisher(10, "router.decisions.v1", () -> {
            if (attempts.incrementAndGet() == 1) {
                throw new org.apache.kafka.common.KafkaException("no resolvable bootstrap urls");
            }
            return producer;
        }, topicsReady::get, meters);
        publisher.start();

        publisher.offer(decision("req-later"));

        await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 1);
        assertThat(attempts.get()).isEqualTo(2);
        assertThat(new String(producer.history().get(0).key(), StandardCharsets.UTF_8)).isEqualTo("req-later");
        assertThat(counter("zerolayer_router_events_dropped")).isZero();
    }

    @Test
    void aFullBufferDropsAndCountsWithoutBlocking() {
        DecisionPublisher publisher = start(2);
        assertThat(publisher.offer(decision("a"))).isTrue();
        assertThat(publisher.offer(decision("b"))).isTrue();
        assertThat(publisher.offer(decision("c"))).isFalse();
        assertThat(counter("zerolayer_router_events_dropped")).isEqualTo(1);
        assertThat(publisher.buffered()).isEqualTo(2);
    }
}
