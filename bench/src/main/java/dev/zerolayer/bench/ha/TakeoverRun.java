package dev.zerolayer.bench.ha;

import dev.zerolayer.bench.proxy.PeerProcess;
import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.routing.complexity.ComplexityModels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.node.ObjectNode;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How long the services with one writer (fallback-service: policy and alerts; complexity-service: models) go without
 * one when the leading replica is killed with SIGKILL: two replicas of each against the local stack's broker, the
 * leader killed, the survivor sent a write every 50 ms until one succeeds (writes refused meanwhile counted; when its
 * term began read from its own log), the killed one started again; {@code kills} rounds per service. With
 * {@code --pause} the leader is stopped with SIGSTOP instead, kept stopped until the survivor took a write, sent a write
 * of its own while stopped (the bytes wait in its socket), and resumed: that write must be refused (fenced by the
 * broker, or refused once it saw its term end) and never be read from the topic.
 *
 * <p>Usage: {@code TakeoverRun <root> [kills] [--pause]}, after {@code ./mvnw -q install -DskipTests}.
 */
public final class TakeoverRun {

    private static final String ADMIN = "Bearer " + StackProcess.ADMIN_TOKEN;
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();

    private TakeoverRun() {
    }

    /** One service's replicas: how to start replica {@code i}, and the write that proves a replica takes writes. */
    private record Service(String module, int basePort, String write) {

        List<String> command(Path root, int replica, Path dataDir) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            command.addAll(Arrays.asList(StackProcess.childJvmOptions().split("\\s+")));
            command.addAll(List.of("-jar", root.resolve(module + "/target/" + module + ".jar").toString(),
                    "--server.port=" + port(replica), "--zerolayer.replica-id=" + module + "-" + replica,
                    "--zerolayer.fallback.data-dir=" + dataDir.resolve(module + "-" + replica)));
            return command;
        }

        int port(int replica) {
            return basePort + 100 * replica;
        }
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath();
        int kills = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        boolean pause = List.of(args).contains("--pause");
        String skip = "router-service,telemetry-service,complexity-service,cache-service,fallback-service,"
                + "node-simulator,console-service";
        Path work = Files.createTempDirectory("zerolayer-takeover");
        System.out.printf(Locale.ROOT, "takeover run: %s, %d kills per service, %d CPUs (%s)%n", root, kills,
                Runtime.getRuntime().availableProcessors(), cpuModel());
        try (StackProcess stack = StackProcess.start(root, 18990, 19392, skip, Map.of())) {
            Map<String, String> env = Map.of("KAFKA_BOOTSTRAP_SERVERS", stack.kafka(),
                    "ZEROLAYER_ADMIN_TOKEN", StackProcess.ADMIN_TOKEN);
            for (Service service : List.of(new Service("fallback-service", 18884, "/v1/policy"),
                    new Service("complexity-service", 18882, "/v1/complexity/model"))) {
                run(root, work, env, service, kills, pause, stack.kafka());
            }
        }
    }

    private static void run(Path root, Path work, Map<String, String> env, Service service, int kills, boolean pause,
            String kafka) throws Exception {
        PeerProcess[] replicas = new PeerProcess[2];
        for (int i = 0; i < 2; i++) {
            replicas[i] = start(root, work, env, service, i);
        }
        try {
            for (int round = 1; round <= kills; round++) {
                if (pause) {
                    pauseRound(service, replicas, round, kafka);
                    continue;
                }
                int leader = awaitOneLeader(service);
                int survivor = 1 - leader;
                long killed = System.nanoTime();
                Instant killedAt = Instant.now();
                replicas[leader].kill();
                int refused = 0;
                long writes = -1;
                int attempt = 0;
                while (writes < 0) {
                    if (System.nanoTime() - killed > LIMIT.toNanos()) {
                        throw new IllegalStateException(service.module() + ": no writer " + LIMIT + " after the kill");
                    }
                    int status = write(service, survivor, round * 100 + attempt++);
                    if (status == 200) {
                        writes = System.nanoTime() - killed;
                    } else {
                        refused++;
                        Thread.sleep(50); // polling the survivor
                    }
                }
                // when the survivor's term began, from its own log (health polling would blur it by seconds)
                long leads = -1;
                for (String line : Files.readAllLines(work.resolve(service.module() + "-" + survivor + ".log"))) {
                    if (line.contains(" leads " + service.module() + ".leader")) {
                        Instant at = Instant.parse(line.substring(0, line.indexOf(' ')));
                        if (at.isAfter(killedAt)) {
                            leads = Duration.between(killedAt, at).toMillis();
                        }
                    }
                }
                long restarted = System.nanoTime();
                replicas[leader] = start(root, work, env, service, leader);
                System.out.printf(Locale.ROOT, "%s kill %d (SIGKILL %s-%d): survivor leads after %d ms, first write "
                        + "accepted after %d ms, %d writes refused meanwhile; killed replica back (healthy) after "
                        + "%d ms%n", service.module(), round, service.module(), leader, leads,
                        writes / 1_000_000, refused, (System.nanoTime() - restarted) / 1_000_000);
            }
        } finally {
            for (PeerProcess replica : replicas) {
                replica.close();
            }
        }
    }

    /** One SIGSTOP round: the paused leader's write, queued while it is stopped, must not be applied or read. */
    private static void pauseRound(Service service, PeerProcess[] replicas, int round, String kafka)
            throws Exception {
        int leader = awaitOneLeader(service);
        int survivor = 1 - leader;
        signal("STOP", replicas[leader].pid());
        long stopped = System.nanoTime();
        int refused = 0;
        int attempt = 0;
        while (write(service, survivor, round * 100 + attempt++) != 200) {
            if (System.nanoTime() - stopped > LIMIT.toNanos()) {
                signal("CONT", replicas[leader].pid());
                throw new IllegalStateException(service.module() + ": no writer " + LIMIT + " after the pause");
            }
            refused++;
            Thread.sleep(50); // polling the survivor
        }
        long survivorWrites = System.nanoTime() - stopped;
        long token = 900_000 + round;
        String marker = marker(service, token);
        byte[] body = body(service, survivor, token);
        try (Socket socket = new Socket("127.0.0.1", service.port(leader))) {
            // the paused replica's kernel accepts the connection and holds the request until the process resumes
            socket.getOutputStream().write(("PUT " + service.write() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: " + ADMIN + "\r\nContent-Type: application/json\r\n"
                    + (service.module().startsWith("fallback") ? "If-Match: *\r\n" : "")
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            signal("CONT", replicas[leader].pid());
            socket.setSoTimeout(30_000);
            String status = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                    .findFirst().orElse("(no answer)");
            String topic = service.module().startsWith("fallback") ? Topics.FALLBACK_POLICY : Topics.COMPLEXITY_MODEL;
            System.out.printf(Locale.ROOT, "%s pause %d (SIGSTOP %s-%d for %d ms): survivor's first write accepted "
                    + "after %d ms (%d refused); the paused leader's queued write answered '%s'; its transactions "
                    + "fenced %s; records of it on %s: %d read (read_committed), %d in the log%n", service.module(),
                    round, service.module(), leader, (System.nanoTime() - stopped) / 1_000_000,
                    survivorWrites / 1_000_000, refused, status, fencedCount(service, leader), topic,
                    countRecords(kafka, topic, marker, "read_committed"),
                    countRecords(kafka, topic, marker, "read_uncommitted"));
        }
        awaitOneLeader(service);
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " exited " + exit);
        }
    }

    /** {@code zerolayer_leader_transactions_total{outcome="fenced"}} of the replica, as its metrics show it. */
    private static String fencedCount(Service service, int replica) {
        try {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port(replica)
                    + "/actuator/prometheus")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().filter(l -> l.startsWith("zerolayer_leader_transactions_total{")
                    && l.contains("outcome=\"fenced\"")).map(l -> l.substring(l.lastIndexOf(' ') + 1)).findFirst()
                    .orElse("0");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Records of the topic whose value holds {@code marker}, read from the beginning at the isolation level. */
    private static int countRecords(String kafka, String topic, String marker, String isolation) {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka, "isolation.level", isolation,
                "enable.auto.commit", "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config,
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            int found = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() != null
                            && new String(record.value(), StandardCharsets.UTF_8).contains(marker)) {
                        found++;
                    }
                }
            }
            return found;
        }
    }

    private static PeerProcess start(Path root, Path work, Map<String, String> env, Service service, int replica)
            throws IOException, InterruptedException {
        PeerProcess process = PeerProcess.start(service.module() + "-" + replica,
                service.command(root, replica, work), env, work,
                work.resolve(service.module() + "-" + replica + ".log"));
        process.awaitHttp("http://127.0.0.1:" + service.port(replica) + "/actuator/health/readiness", LIMIT);
        return process;
    }

    /** Waits until exactly one replica's health says it leads; returns it. */
    private static int awaitOneLeader(Service service) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            boolean first = "leader".equals(role(service, 0));
            boolean second = "leader".equals(role(service, 1));
            if (first ^ second) {
                return first ? 0 : 1;
            }
            Thread.sleep(100); // polling health
        }
        throw new IllegalStateException(service.module() + ": no single leader within " + LIMIT);
    }

    private static String role(Service service, int replica) {
        try {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port(replica)
                    + "/actuator/health")).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            int at = body.indexOf("\"role\":\"");
            return at < 0 ? "" : body.substring(at + 8, body.indexOf('"', at + 8));
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * One write to the replica: the active policy with one alerting setting changed (any version), or the lexical
     * model under a new version; its status, 0 when the replica cannot be reached.
     */
    private static int write(Service service, int replica, int n) {
        String base = "http://127.0.0.1:" + service.port(replica);
        try {
            byte[] body = body(service, replica, 1000 + n);
            if (body == null) {
                return 503;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + service.write()))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", ADMIN)
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofByteArray(body));
            if (service.module().startsWith("fallback")) {
                request.header("If-Match", "*");
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * A write's body, told apart by {@code token} (digits): the replica's active policy with the alerts' minimum
     * decision count set to it, or the lexical model with it in its version; null when the replica has no policy.
     */
    private static byte[] body(Service service, int replica, long token) throws IOException, InterruptedException {
        if (service.module().startsWith("fallback")) {
            HttpResponse<String> active = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + service.port(replica) + "/v1/policy")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (active.statusCode() != 200) {
                return null;
            }
            return active.body().replaceFirst("\"minDecisions\":\\d+", "\"minDecisions\":" + token)
                    .getBytes(StandardCharsets.UTF_8);
        }
        ObjectNode model = (ObjectNode) EventCodec.mapper().readTree(EventCodec.encode(ComplexityModels.lexical()));
        model.put("modelVersion", "takeover-" + token);
        return EventCodec.mapper().writeValueAsBytes(model);
    }

    /** What a record written from {@link #body} with {@code token} holds, as the services encode it. */
    private static String marker(Service service, long token) {
        return service.module().startsWith("fallback") ? "\"minDecisions\":" + token
                : "\"modelVersion\":\"takeover-" + token + "\"";
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }
}
