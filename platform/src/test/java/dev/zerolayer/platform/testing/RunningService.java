package dev.zerolayer.platform.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** A real service started in this JVM on a random port against a given broker; closing it stops it like a shutdown. */
public final class RunningService implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    // Plain HTTP/1.1 (no h2c upgrade attempts) on a fresh connection per request: the JDK client's pooled connections
    // intermittently stalled a request against Reactor Netty on a loaded machine; no test here is about reuse.
    private static HttpClient http() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    private RunningService(ConfigurableApplicationContext context) {
        this.context = context;
    }

    public static RunningService start(Class<?> application, String bootstrapServers, String... properties) {
        // Command-line arguments outrank application.yml, so a fixed port there never collides with a running stack.
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--KAFKA_BOOTSTRAP_SERVERS=" + bootstrapServers,
                "--spring.cloud.stream.kafka.binder.brokers=" + bootstrapServers));
        for (String property : properties) {
            args.add("--" + property);
        }
        return new RunningService(new SpringApplicationBuilder(application).run(args.toArray(String[]::new)));
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    public <T> T bean(String name, Class<T> type) {
        return context.getBean(name, type);
    }

    public boolean isActive() {
        return context.isActive();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    public HttpResponse<String> get(String path) {
        return get(path, new String[0]);
    }

    /** A GET with headers given as name, value, name, value, … */
    public HttpResponse<String> get(String path, String... headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                    .timeout(Duration.ofSeconds(10)).GET();
            for (int i = 0; i < headers.length; i += 2) {
                request.header(headers[i], headers[i + 1]);
            }
            return http().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the HTTP server only: the service goes on otherwise (its Kafka clients, its election), unreachable. */
    public void stopWebServer() {
        ((WebServerApplicationContext) context).getWebServer().stop();
    }

    @Override
    public void close() {
        context.close();
    }
}
