package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.router.auth.PeerDemand;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two router replicas on the real broker split a key's rate limit by demand: a client sending to both as fast as it
 * can is admitted about the key's limit in all, not the limit at each replica.
 */
@ExtendWith(SharedKafka.class)
class SharedRateLimitIT {

    private static final int LIMIT = 20;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final String COUNT = "{\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"How many tokens is this?\"}]}";

    private record Answer(long atNanos, int status) {
    }

    /** Sends count_tokens requests to {@code router} back to back until {@code stop}, noting each answer. */
    private static void hammer(RunningService router, AtomicBoolean stop, ConcurrentLinkedQueue<Answer> answers)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(router.baseUrl() + "/v1/messages/count_tokens"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(COUNT))
                .header("content-type", "application/json").header("anthropic-version", "2023-06-01").build();
        while (!stop.get()) {
            int status = HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            answers.add(new Answer(System.nanoTime(), status));
        }
    }

    private static long admitted(ConcurrentLinkedQueue<Answer> answers, long fromNanos, long toNanos) {
        return answers.stream().filter(a -> a.atNanos() >= fromNanos && a.atNanos() < toNanos)
                .filter(a -> a.status() == 200).count();
    }

    @Test
    void twoReplicasAdmitAboutTheKeysLimitInAll() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String limit = "zerolayer.router.requests-per-second=" + LIMIT;
        String noWarmUp = "zerolayer.router.warm-up.enabled=false";
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try (RunningService a = RunningService.start(RouterApplication.class,
                        SharedKafka.broker().bootstrapServers(), limit, noWarmUp, "zerolayer.replica-id=router-a-" + run);
                RunningService b = RunningService.start(RouterApplication.class,
                        SharedKafka.broker().bootstrapServers(), limit, noWarmUp,
                        "zerolayer.replica-id=router-b-" + run)) {
            for (RunningService router : List.of(a, b)) {
                await().atMost(WAIT).until(() -> router.bean(TopicGuard.class).ready());
            }
            // Given a client (anonymous, on loopback) sending to both replicas as fast as it can, two loops each
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Answer> atA = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Answer> atB = new ConcurrentLinkedQueue<>();
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                loops.add(clients.submit(() -> {
                    hammer(a, stop, atA);
                    return null;
                }));
                loops.add(clients.submit(() -> {
                    hammer(b, stop, atB);
                    return null;
                }));
            }
            try {
                // When each replica has seen the other's demand, and the limiters refilled with their parts
                await().atMost(WAIT).until(() -> a.bean(PeerDemand.class).peers() == 1
                        && b.bean(PeerDemand.class).peers() == 1);
                long settled = System.nanoTime() + Duration.ofMillis(1_500).toNanos();
                long end = settled + Duration.ofSeconds(3).toNanos();
                // (both have answered past the window's end)
                await().atMost(WAIT).until(() -> atA.stream().anyMatch(answer -> answer.atNanos() >= end)
                        && atB.stream().anyMatch(answer -> answer.atNanos() >= end));
                // Then over 3 s the two admitted about 3 x the key's limit in all (3 refills each of half of it),
                // not 3 x the limit at each (120): at most 1.5 x, and each replica its share
                long admittedA = admitted(atA, settled, end);
                long admittedB = admitted(atB, settled, end);
                System.out.printf("admitted in 3 s at a limit of %d/s: A %d, B %d (asked %d)%n", LIMIT, admittedA,
                        admittedB, atA.size() + atB.size());
                assertThat(admittedA + admittedB).as("admitted at A %d, at B %d", admittedA, admittedB)
                        .isBetween(3L * LIMIT / 2, 3L * LIMIT * 3 / 2);
                assertThat(admittedA).isGreaterThanOrEqualTo(LIMIT / 2);
                assertThat(admittedB).isGreaterThanOrEqualTo(LIMIT / 2);
                assertThat(atA.stream().filter(answer -> answer.status() != 200))
                        .allMatch(answer -> answer.status() == 429);
            } finally {
                stop.set(true);
                for (Future<?> loop : loops) {
                    loop.get();
                }
            }
        } finally {
            clients.shutdownNow();
        }
    }
}
