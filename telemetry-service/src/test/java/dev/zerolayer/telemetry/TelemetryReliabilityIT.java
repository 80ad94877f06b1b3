package dev.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.telemetry.health.HealthTracker;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * telemetry-service's sample consumer never stops: a few hundred random, damaged, mis-keyed and empty records on
 * {@code telemetry.samples.v1} are each dead-lettered and counted, and a valid sample published after them is applied.
 * Its actuator shows health and prometheus only, and it has no mutating HTTP endpoint.
 */
@ExtendWith(SharedKafka.class)
class TelemetryReliabilityIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int GARBAGE = 300;
    private static final List<String> HIDDEN_ACTUATORS = List.of("/actuator/env", "/actuator/beans",
            "/actuator/configprops", "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers",
            "/actuator/mappings", "/actuator/shutdown", "/actuator/bindings");

    @Test
    void garbageIsDeadLetteredAndCountedAndTheConsumerKeepsApplyingSamples() throws Exception {
        String servers = SharedKafka.broker().bootstrapServers();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String node = "fz-node-" + run;
        long seed = Long.getLong("zerolayer.fuzz.seed", new SecureRandom().nextLong());
        Random random = new Random(seed);
        try (RunningService service = RunningService.start(TelemetryApplication.class, servers);
             KafkaTestClient kafka = new KafkaTestClient(servers)) {
            HealthTracker tracker = service.bean(HealthTracker.class);
            MeterRegistry meters = service.bean(MeterRegistry.class);

            // Given a registered node whose samples are applied
            // (a node publishes a fresh sample every poll, as a live one does: a single sample can go stale while
            // the service's consumer is still being bound on a slow machine)
            await().atMost(WAIT).pollInSameThread().until(() -> {
                kafka.publish(Topics.TELEMETRY_SAMPLES, NodeRegistration.of(node, "haiku", "haiku-l4", null,
                        "http://127.0.0.1:18100", UpstreamProtocol.ANTHROPIC, "claude-haiku-4-5", 8, "2xL4"));
                kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, 1));
                return tracker.snapshot(node).map(h -> h.queueDepth() == 1 && h.state() != NodeState.DOWN)
                        .orElse(false);
            });
            double rejectedBefore = rejected(meters);

            // When hundreds of records that cannot be read arrive, each under a key of this run
            byte[] valid = EventCodec.encode(sample(node, 2));
            int expectedDeadLetters = 0;
            for (int i = 0; i < GARBAGE; i++) {
                String key = "fz-" + run + "-" + i;
                byte[] value = garbage(random, valid);
                boolean unreadable;
                try {
                    EventCodec.decode(value, NodeTelemetry.class, key);
                    unreadable = false;
                } catch (InvalidEventException e) {
                    unreadable = true;
                }
                // every record here is keyed by neither a registered node nor its own event: each is refused
                assertThat(unreadable).as("garbage %d (seed %d) must be refused by the codec", i, seed).isTrue();
                expectedDeadLetters++;
                kafka.send(Topics.TELEMETRY_SAMPLES, key, value);
            }

            // and then a valid sample
            kafka.publish(Topics.TELEMETRY_SAMPLES, sample(node, 7));

            // Then the consumer is alive: the valid sample is applied
            await().atMost(WAIT).until(() -> tracker.snapshot(node).orElseThrow().queueDepth() == 7);

            // and every garbage record is on the dead-letter topic, each counted
            String dlq = Topics.deadLetterTopic(Topics.TELEMETRY_SAMPLES, Topics.TELEMETRY);
            int expected = expectedDeadLetters;
            await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq).stream()
                    .filter(r -> r.key() != null).map(r -> new String(r.key(), StandardCharsets.UTF_8))
                    .filter(k -> k.startsWith("fz-" + run)).distinct().count()).as("dead-lettered garbage (seed %d)", seed).isEqualTo(expected));
            assertThat(rejected(meters) - rejectedBefore).isGreaterThanOrEqualTo(expected);
            assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
            System.out.printf("telemetry consumer: %d garbage records dead-lettered, consumer alive (seed %d)%n",
                    expected, seed);

            // Operational surface: health and prometheus only; nothing mutating over HTTP
            assertThat(service.get("/actuator/prometheus").statusCode()).isEqualTo(200);
            for (String path : HIDDEN_ACTUATORS) {
                assertThat(service.get(path).statusCode()).as(path).isEqualTo(404);
            }
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (String method : List.of("POST", "PUT", "DELETE")) {
                for (String path : List.of("/v1/nodes", "/v1/nodes/" + node)) {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                            .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                            .header("content-type", "application/json").timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(response.statusCode()).as(method + " " + path).isIn(404, 405);
                }
            }
            assertThat(tracker.snapshot(node)).isPresent();
        }
    }

    private static double rejected(MeterRegistry meters) {
        return meters.find("zerolayer.events.rejected").tag("topic", Topics.TELEMETRY_SAMPLES).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private static TelemetrySample sample(String node, int queueDepth) {
        return new TelemetrySample(UUID.randomUUID().toString(), Instant.now(), 1, node, 0.4, 1e9, 1e9, 0.2, 20_000,
                4_000, 0.1, 3, queueDepth, 0.3, false, 0);
    }

    /** Noise, damaged JSON, invalid UTF-8, wrong types, a missing field, or a valid sample under a foreign key. */
    private static byte[] garbage(Random random, byte[] valid) {
        String json = new String(valid, StandardCharsets.UTF_8);
        return switch (random.nextInt(9)) {
            case 0 -> {
                byte[] noise = new byte[1 + random.nextInt(200)];
                random.nextBytes(noise);
                noise[0] = '{';
                yield noise;
            }
            case 1 -> json.substring(0, random.nextInt(json.length())).getBytes(StandardCharsets.UTF_8);
            case 2 -> {
                byte[] bad = valid.clone();
                bad[1 + random.nextInt(bad.length - 2)] = (byte) 0xFF;
                yield bad;
            }
            case 3 -> json.replace("\"smActive\":0.4", "\"smActive\":\"high\"").getBytes(StandardCharsets.UTF_8);
            case 4 -> json.replace("\"requestsWaiting\":2,", "").getBytes(StandardCharsets.UTF_8);
            case 5 -> json.replace("\"type\":\"sample\"", "\"type\":\"" + random.nextInt() + "\"")
                    .getBytes(StandardCharsets.UTF_8);
            case 6 -> ("[" + json + "]").getBytes(StandardCharsets.UTF_8);
            case 7 -> "[".repeat(2_000 + random.nextInt(2_000)).getBytes(StandardCharsets.UTF_8);
            default -> valid; // a valid sample under a key that is not its node's
        };
    }
}
