package dev.zerolayer.bench.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The local stack ({@code local-stack/target/local-stack.jar}) as a benchmark's own child process on a fresh data
 * directory: started with the given services skipped and extra environment, READY awaited, stopped (with every
 * child) on close.
 */
public final class StackProcess implements AutoCloseable {

    public static final String API_KEY = "zl-bench";
    /** The admin token the stack is started with (simulator fault API, policy uploads): sent as a bearer token. */
    public static final String ADMIN_TOKEN = "zla-bench-admin-token";

    /**
     * The environment variable giving the services' JVM options; unset: {@link #DEFAULT_CHILD_JVM_OPTS}.
     */
    public static final String CHILD_JVM_OPTS = "ZEROLAYER_CHILD_JVM_OPTS";
    /**
     * 512 MB of heap and the serial collector: on two shared cores a young pause of a parallel collector lasts until
     * both its worker threads got a core (the generator, the node and the broker hold them), the serial one needs
     * one; it is also what the JVM picks by itself in a container below 2 CPUs or 1,792 MB, such as the chart's.
     * Transparent huge pages (where the kernel offers them on request, {@code madvise}) for the heap and the
     * compiled code: a request through the router runs a lot of compiled code (Spring, Reactor, Netty, Jackson),
     * and 2 MB pages cover it with far fewer TLB entries.
     */
    public static final String DEFAULT_CHILD_JVM_OPTS = "-Xmx512m -XX:+UseSerialGC -XX:+UseTransparentHugePages";

    private final Process process;
    private final String router;
    private final String kafka;
    private final Path data;
    private final Thread reaper;

    private StackProcess(Process process, String router, String kafka, Path data) {
        this.process = process;
        this.router = router;
        this.kafka = kafka;
        this.data = data;
        // Ctrl-C or a failure that ends the JVM: the stack goes too
        this.reaper = new Thread(() -> stop(process), "stack-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /**
     * @param skip services not to run, comma-separated (empty: all)
     * @param env  extra environment for the launcher and its children (e.g. {@code SPRING_APPLICATION_JSON})
     */
    public static StackProcess start(Path root, int routerPort, int kafkaPort, String skip, Map<String, String> env)
            throws IOException, InterruptedException {
        return start(root, routerPort, kafkaPort, skip, env, java.util.List.of());
    }

    /** As {@link #start(Path, int, int, String, Map)}, with more launcher arguments (e.g. {@code --replicas 2}). */
    public static StackProcess start(Path root, int routerPort, int kafkaPort, String skip, Map<String, String> env,
            java.util.List<String> launcherArgs) throws IOException, InterruptedException {
        Path jar = root.resolve("local-stack/target/local-stack.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("missing " + jar + ": run ./mvnw -B -q install -DskipTests first");
        }
        Path data = Files.createTempDirectory("zerolayer-bench-stack");
        var command = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                "--root", root.toString(), "--port", Integer.toString(routerPort),
                "--kafka-port", Integer.toString(kafkaPort), "--data-dir", data.toString()));
        if (!skip.isBlank()) {
            command.addAll(java.util.List.of("--skip", skip));
        }
        command.addAll(launcherArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("ZEROLAYER_API_KEYS", API_KEY);
        builder.environment().put("ZEROLAYER_ADMIN_TOKEN", ADMIN_TOKEN);
        builder.environment().put(CHILD_JVM_OPTS, childJvmOptions());
        builder.environment().putAll(env);
        Process process = builder.start();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    System.err.println("stack: " + line);
                    if (line.startsWith("ZEROLAYER READY")) {
                        ready.complete(true);
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.complete(false);
        }, "stack-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!ready.get(360, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the stack exited before READY (exit " + process.waitFor() + ")");
            }
        } catch (ExecutionException | TimeoutException e) {
            stop(process);
            throw new IllegalStateException("the stack did not get READY", e);
        }
        return new StackProcess(process, "http://127.0.0.1:" + routerPort, "127.0.0.1:" + kafkaPort, data);
    }

    /** The JVM options every service of a started stack runs with: this JVM's environment's, else the default. */
    public static String childJvmOptions() {
        String given = System.getenv(CHILD_JVM_OPTS);
        return given == null || given.isBlank() ? DEFAULT_CHILD_JVM_OPTS : given.trim();
    }

    public String router() {
        return router;
    }

    /** A child's log file under the stack's data directory ({@code haproxy}: the router balancer's). */
    public Path log(String name) {
        return data.resolve("logs").resolve(name + ".log");
    }

    /** The broker's bootstrap address. */
    public String kafka() {
        return kafka;
    }

    /** Polls until the router answers {@code body} on {@code path} with 200 (its node-health view has the nodes). */
    public void awaitServes(String path, String body, Map<String, String> headers, Duration limit) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(router + path))
                    .header("content-type", "application/json").header("x-api-key", API_KEY)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            headers.forEach(request::header);
            if (http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                return;
            }
            Thread.sleep(500); // polling the router until it serves
        }
        throw new IllegalStateException("the router did not serve within " + limit);
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // already in the hook
        }
    }

    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        var children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                children.forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            children.forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
