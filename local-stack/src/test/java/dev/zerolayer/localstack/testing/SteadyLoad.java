package dev.zerolayer.localstack.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closed-loop non-streaming haiku-pinned requests to the router from a few threads until stopped: every answer is
 * recorded (status, request id, route; -1 and the exception's name when the request got no answer).
 */
public final class SteadyLoad implements AutoCloseable {

    /** One answer: HTTP status (-1: none), {@code request-id}, {@code X-Anthropic-Route} (or the exception's name). */
    public record Sent(int status, String requestId, String route) {
    }

    private final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger answered = new AtomicInteger();
    private final ExecutorService pool;

    private SteadyLoad(HttpClient http, String router, String apiKey, int workers) {
        AtomicInteger counter = new AtomicInteger();
        pool = Executors.newFixedThreadPool(workers);
        for (int w = 0; w < workers; w++) {
            pool.submit(() -> {
                while (!stop.get()) {
                    String body = "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
                            + "\"content\":\"steady load request " + counter.incrementAndGet() + "\"}]}";
                    HttpRequest request = HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                            .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                            .header("x-api-key", apiKey).header("anthropic-routing-priority", "haiku")
                            .header("anthropic-debug", "route")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                    try {
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        sent.add(new Sent(response.statusCode(), response.headers().firstValue("request-id").orElse(""),
                                response.headers().firstValue("X-Anthropic-Route").orElse("")));
                    } catch (IOException e) {
                        sent.add(new Sent(-1, "", e.getClass().getSimpleName()));
                    }
                    answered.incrementAndGet();
                }
                return null;
            });
        }
    }

    /** Starts {@code workers} threads sending to {@code router} with {@code apiKey}. */
    public static SteadyLoad start(HttpClient http, String router, String apiKey, int workers) {
        return new SteadyLoad(http, router, apiKey, workers);
    }

    /** Requests answered (or failed) so far. */
    public int count() {
        return answered.get();
    }

    /** Stops the workers (each finishes its request in flight) and returns every answer. */
    public List<Sent> stop() throws InterruptedException {
        stop.set(true);
        pool.shutdown();
        if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
            pool.shutdownNow();
            throw new IllegalStateException("load workers did not finish within 60 s");
        }
        return new ArrayList<>(sent);
    }

    @Override
    public void close() throws InterruptedException {
        if (!pool.isShutdown()) {
            stop();
        }
    }
}
