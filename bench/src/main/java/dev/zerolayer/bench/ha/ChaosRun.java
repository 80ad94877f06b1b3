package dev.zerolayer.bench.ha;

import dev.zerolayer.bench.stack.StackProcess;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chaos run of #27: {@code ./zerolayer up --replicas 2} under a steady mixed load (streaming and not, in sessions,
 * with policy changes and faults on simulated nodes), one replica of each service killed with SIGKILL in turn (a router,
 * a telemetry replica, a cache replica, and the leader of complexity- and fallback-service) and started again by the
 * launcher;
 * per kill: client-visible errors (those of requests in flight on a killed router counted apart), how long node health,
 * the KV index and the sessions stopped updating, policy writes refused or delayed and the time to rejoin; at the end,
 * every compacted topic audited for keys with two writers in one generation, records lost (the topic's latest value
 * against the services' own state) and records duplicated (a key written again with the value it had). Exits 1 when a
 * target is missed (errors outside in-flight requests of a killed router, anything lost or duplicated, two writers).
 *
 * <p>Usage: {@code ChaosRun <root> [rounds] [--out FILE]}, after {@code ./mvnw -q install -DskipTests}; rounds (default
 * 1) passes over the five services, the replica killed alternating between passes.
 */
public final class ChaosRun {

    private static final int ROUTER_PORT = 18480;
    private static final int KAFKA_PORT = 19392;
    private static final String ADMIN = "Bearer " + StackProcess.ADMIN_TOKEN;
    /**
     * A guard against a replica that never comes back, not a target (the time to rejoin is reported): a router's
     * rejoin is its JVM start on cores the load keeps busy (57-155 s seen here) plus its warm-up, capped at 60 s.
     */
    private static final Duration REJOIN_LIMIT = Duration.ofSeconds(300);
    private static final Duration SETTLE = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final List<String> AUDITED = List.of(Topics.TELEMETRY_NODE_HEALTH, Topics.CACHE_KV_HOLDINGS,
            Topics.CACHE_KV_INDEX, Topics.CACHE_SESSIONS, Topics.FALLBACK_POLICY, Topics.COMPLEXITY_MODEL);
    private static final String SYSTEM = "You are the support assistant of a company that sells industrial pumps. "
            + "Answer briefly, cite the manual section when you can, and never promise delivery dates. ";

    private ChaosRun() {
    }

    /** A service of the stack with replicas: its module and the port of replica 1 (replica k: + 100 (k - 1)). */
    private record Service(String module, int port, boolean elected) {

        int port(int replica) {
            return module.equals("router-service") ? 18090 + replica - 1 : port + 100 * (replica - 1);
        }
    }

    private static final List<Service> SERVICES = List.of(new Service("router-service", 18090, false),
            new Service("telemetry-service", 18081, false), new Service("complexity-service", 18082, true),
            new Service("cache-service", 18083, false), new Service("fallback-service", 18084, true));

    /** One client request: when it began and ended (ns), whether it was answered whole, and why not. */
    private record Outcome(long start, long end, boolean streaming, boolean ok, String problem) {
    }

    /** One record seen on an audited topic, as it arrived. */
    private record Seen(String topic, int partition, long offset, String key, byte[] value, long timestamp) {
    }

    /** One kill and what followed it. */
    /** @param handover for a cache-service kill, when the survivor had taken the killed one's partitions (ns; else 0) */
    private record Kill(String module, int replica, String role, long at, long handover, long rejoined,
            long phaseEnd) {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int rounds = args.length > 1 && !args[1].startsWith("--") ? Integer.parseInt(args[1]) : 1;
        Path out = null;
        for (int i = 1; i < args.length - 1; i++) {
            if (args[i].equals("--out")) {
                out = Path.of(args[i + 1]);
            }
        }
        String report;
        boolean met;
        try (StackProcess stack = StackProcess.start(root, ROUTER_PORT, KAFKA_PORT, "", Map.of(),
                List.of("--replicas", "2"));
             Tap tap = new Tap(stack.kafka())) {
            awaitReady();
            stack.awaitServes("/v1/messages", body(false, "warm", -1), Map.of(), Duration.ofSeconds(180));
            Load load = new Load(stack.router());
            load.start();
            Thread.sleep(SETTLE.toMillis()); // a baseline of the load before the first kill (a measurement window)
            long baselineStart = System.nanoTime() - SETTLE.toNanos();
            List<Kill> kills = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                for (Service service : SERVICES) {
                    kills.add(kill(service, round));
                }
            }
            load.stop();
            Thread.sleep(SETTLE.toMillis()); // publications of the last changes (a measurement window)
            Audit audit = new Audit(tap.seen(), tap.startedAt());
            StringBuilder text = new StringBuilder();
            met = report(text, kills, load, audit, baselineStart, stack.log("haproxy"));
            report = text.toString();
        }
        System.out.println(report);
        if (out != null) {
            Files.writeString(out, report);
        }
        System.exit(met ? 0 : 1);
    }

    // ---- the kills ------------------------------------------------------------------------------------------------

    private static Kill kill(Service service, int round) throws Exception {
        int replica = service.elected() ? leader(service) : 1 + round % 2;
        String role = service.elected() ? "leader" : "replica";
        ProcessHandle process = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .map(c -> c.contains("--zerolayer.replica-id=" + service.module() + "-" + replica + " ")
                        || c.endsWith("--zerolayer.replica-id=" + service.module() + "-" + replica))
                .orElse(false)).findFirst().orElseThrow(() -> new IllegalStateException("no process of "
                        + service.module() + "-" + replica));
        int survivor = 3 - replica;
        long[] generations = service.module().equals("cache-service") ? ownerGenerations(service.port(survivor))
                : null;
        long at = System.nanoTime();
        process.destroyForcibly();
        System.err.printf(Locale.ROOT, "chaos: SIGKILL %s-%d (%s, pid %d)%n", service.module(), replica, role,
                process.pid());
        process.onExit().get();
        long handover = generations == null ? 0 : awaitHandover(service.port(survivor), generations);
        long rejoined = awaitReadiness(service.port(replica));
        System.err.printf(Locale.ROOT, "chaos: %s-%d ready again after %.1f s%n", service.module(), replica,
                (rejoined - at) / 1e9);
        Thread.sleep(SETTLE.toMillis()); // the handover settles before the next kill (a measurement window)
        return new Kill(service.module(), replica, role, at, handover, rejoined, System.nanoTime());
    }

    /** The group generations of a cache replica's node, block and session owners, from its stats. */
    private static long[] ownerGenerations(int port) {
        return getJson("http://127.0.0.1:" + port + "/v1/cache/stats").map(stats -> new long[] {
            stats.path("owned").path("nodeGeneration").asLong(-1),
            stats.path("owned").path("blockGeneration").asLong(-1),
            stats.path("owned").path("sessionGeneration").asLong(-1)}).orElse(new long[] {-1, -1, -1});
    }

    /**
     * Polls the surviving cache replica until each of its owner groups has gone through a rebalance since the kill
     * (the killed replica's partitions moved); returns when (ns), or 0 past the rejoin limit.
     */
    private static long awaitHandover(int port, long[] before) throws InterruptedException {
        long deadline = System.nanoTime() + REJOIN_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            long[] now = ownerGenerations(port);
            if (now[0] > before[0] && now[1] > before[1] && now[2] > before[2]) {
                return System.nanoTime();
            }
            Thread.sleep(100); // polling the survivor's stats
        }
        return 0;
    }

    /** The replica whose health says it leads (waits for one). */
    private static int leader(Service service) throws Exception {
        long deadline = System.nanoTime() + REJOIN_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (int replica = 1; replica <= 2; replica++) {
                Optional<JsonNode> health = getJson("http://127.0.0.1:" + service.port(replica) + "/actuator/health");
                if (health.isPresent() && "leader".equals(health.get().path("components").path("leadership")
                        .path("details").path("role").asString(""))) {
                    return replica;
                }
            }
            Thread.sleep(200); // polling the replicas' health for a leader
        }
        throw new IllegalStateException(service.module() + ": no leader");
    }

    private static void awaitReady() throws Exception {
        for (Service service : SERVICES) {
            for (int replica = 1; replica <= 2; replica++) {
                awaitReadiness(service.port(replica));
            }
        }
    }

    /** Polls the replica's readiness until it answers 200; returns when (ns). */
    private static long awaitReadiness(int port) throws Exception {
        long deadline = System.nanoTime() + REJOIN_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                int status = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/health/readiness")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    return System.nanoTime();
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100); // polling readiness
        }
        throw new IllegalStateException("port " + port + " not ready within " + REJOIN_LIMIT);
    }

    private static Optional<JsonNode> getJson(String url) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(EventCodec.mapper().readTree(response.body()))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    // ---- the load -------------------------------------------------------------------------------------------------

    /** A request under the shared system prompt; with a ticket, its later blocks are new (the KV index changes). */
    private static String body(boolean stream, String question, int ticket) {
        String system = ticket < 0 ? SYSTEM.repeat(6) : SYSTEM + "Ticket " + ticket + ". " + SYSTEM.repeat(5);
        return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":24,\"stream\":" + stream + ",\"system\":\""
                + system + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
    }

    /**
     * Closed-loop clients through the router port (two plain, one streaming, each request in one of 16 sessions, one
     * in four with a prompt of its own so that the KV index keeps changing), a
     * policy change every 3 s sent to either fallback replica (a refusal retried on the other after its Retry-After)
     * and a 4 s fault on a simulated node every 7 s.
     */
    private static final class Load {

        private final String router;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicInteger policyWrites = new AtomicInteger();
        private final AtomicInteger policyRefusals = new AtomicInteger();
        private final AtomicLong policyLongestDelay = new AtomicLong();
        private final Set<Long> acceptedVersions = ConcurrentHashMap.newKeySet();
        private final AtomicInteger faults = new AtomicInteger();
        /** Policy writes: when first tried and when accepted (ns), with refusals meanwhile. */
        private final List<long[]> policyDelays = new CopyOnWriteArrayList<>();

        Load(String router) {
            this.router = router;
        }

        void start() {
            for (int i = 0; i < 3; i++) {
                boolean streaming = i == 2;
                threads.add(thread("client-" + i, () -> {
                    int n = 0;
                    while (running.get()) {
                        outcomes.add(request(streaming, n++));
                    }
                }));
            }
            threads.add(thread("policy", this::changePolicies));
            threads.add(thread("faults", this::injectFaults));
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(60_000);
            }
        }

        private Thread thread(String name, Runnable body) {
            Thread thread = new Thread(body, "chaos-" + name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        private Outcome request(boolean streaming, int n) {
            long start = System.nanoTime();
            String session = "chaos-session-" + ThreadLocalRandom.current().nextInt(16);
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(router + "/v1/messages"))
                        .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
                        .header("x-api-key", StackProcess.API_KEY).header("x-session-id", session)
                        .POST(HttpRequest.BodyPublishers.ofString(body(streaming, "Question " + (n % 40)
                                + " about pump model " + session, n % 4 == 0 ? n : -1))).build(),
                        HttpResponse.BodyHandlers.ofString());
                boolean whole = response.statusCode() == 200 && (streaming
                        ? response.body().contains("event: message_stop")
                        : response.body().contains("\"type\":\"message\""));
                return new Outcome(start, System.nanoTime(), streaming, whole, whole ? null
                        : "HTTP " + response.statusCode() + " " + abbreviate(response.body()));
            } catch (IOException e) {
                return new Outcome(start, System.nanoTime(), streaming, false, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Outcome(start, System.nanoTime(), streaming, false, "interrupted");
            }
        }

        private void changePolicies() {
            int n = 0;
            while (running.get()) {
                long first = System.nanoTime();
                int refused = 0;
                int replica = 1 + n % 2;
                while (running.get()) {
                    Optional<Long> version = writePolicy(replica, n);
                    if (version.isPresent()) {
                        acceptedVersions.add(version.get());
                        policyWrites.incrementAndGet();
                        long delay = System.nanoTime() - first;
                        policyLongestDelay.accumulateAndGet(delay, Math::max);
                        policyDelays.add(new long[] {first, System.nanoTime(), refused});
                        break;
                    }
                    refused++;
                    policyRefusals.incrementAndGet();
                    replica = 3 - replica;
                    pause(1000); // the refusal's Retry-After
                }
                n++;
                pause(3000); // the load's cadence of policy changes
            }
        }

        /** The active policy with one alerting setting changed, PUT to the replica; the version it got, if accepted. */
        private Optional<Long> writePolicy(int replica, int n) {
            String base = "http://127.0.0.1:" + (18084 + 100 * (replica - 1));
            try {
                HttpResponse<String> active = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/policy"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (active.statusCode() != 200) {
                    return Optional.empty();
                }
                String body = active.body().replaceFirst("\"minDecisions\":\\d+", "\"minDecisions\":" + (2000 + n));
                HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/policy"))
                        .timeout(Duration.ofSeconds(10)).header("Authorization", ADMIN)
                        .header("Content-Type", "application/json").header("If-Match", "*")
                        .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                if (put.statusCode() != 200) {
                    return Optional.empty();
                }
                return put.headers().firstValue("ETag").map(ChaosRun::version);
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }

        private void injectFaults() {
            List<String> types = List.of("errors", "load_spike", "stream_cut", "crash", "sm_saturation");
            int n = 0;
            while (running.get()) {
                pause(7000); // the load's cadence of faults
                Optional<JsonNode> nodes = getJson("http://127.0.0.1:18081/v1/nodes");
                if (nodes.isEmpty()) {
                    nodes = getJson("http://127.0.0.1:18181/v1/nodes");
                }
                List<String> ids = new ArrayList<>();
                nodes.ifPresent(all -> all.path("nodes").forEach(node -> ids.add(node.path("nodeId").asString(""))));
                ids.removeIf(String::isBlank);
                if (ids.isEmpty()) {
                    continue;
                }
                String node = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
                String type = types.get(n++ % types.size());
                try {
                    int status = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:18085/admin/nodes/"
                            + node + "/faults")).timeout(Duration.ofSeconds(5))
                            .header("content-type", "application/json").header("authorization", ADMIN)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"" + type
                                    + "\",\"durationMs\":4000,\"intensity\":1.0}")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                    if (status == 201) {
                        faults.incrementAndGet();
                    }
                } catch (IOException e) {
                    // the simulator is not killed; a failed injection is just one fault fewer
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private void pause(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.set(false);
            }
        }
    }

    /** The version an ETag names ({@code "12"} or {@code W/"12"}). */
    private static long version(String etag) {
        String digits = etag.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? -1 : Long.parseLong(digits);
    }

    /** The policy version a fallback replica runs (its ETag), or -1. */
    private static long activeVersion(int port) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/policy"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).headers()
                    .firstValue("ETag").map(ChaosRun::version).orElse(-1L);
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String abbreviate(String body) {
        String flat = body.replaceAll("\\s+", " ");
        return flat.length() > 160 ? flat.substring(0, 160) + "…" : flat;
    }

    // ---- the topics -----------------------------------------------------------------------------------------------

    /** Every record of the audited topics from their beginning, with the time it arrived. */
    private static final class Tap implements AutoCloseable {

        private final List<Seen> seen = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        private final long startedAt = System.nanoTime();

        Tap(String bootstrap) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // what the services read as state
            thread = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
                    List<TopicPartition> partitions = new ArrayList<>();
                    for (String topic : AUDITED) {
                        for (PartitionInfo info : consumer.partitionsFor(topic)) {
                            partitions.add(new TopicPartition(topic, info.partition()));
                        }
                    }
                    consumer.assign(partitions);
                    consumer.seekToBeginning(partitions);
                    while (running.get()) {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            seen.add(new Seen(r.topic(), r.partition(), r.offset(), r.key() == null ? null
                                    : new String(r.key(), StandardCharsets.UTF_8), r.value(), System.nanoTime()));
                        }
                    }
                }
            }, "chaos-tap");
            thread.setDaemon(true);
            thread.start();
        }

        List<Seen> seen() {
            return List.copyOf(seen);
        }

        long startedAt() {
            return startedAt;
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
        }
    }

    /** What the compacted topics say at the end, against the services' own state. */
    private static final class Audit {

        final List<Seen> seen;
        final Map<String, List<String>> twoWriters = new TreeMap<>();
        final Map<String, Integer> withoutWriter = new TreeMap<>();
        final Map<String, List<String>> lost = new TreeMap<>();
        final Map<String, List<String>> duplicated = new TreeMap<>();
        final Map<String, Integer> records = new TreeMap<>();
        final long modelRecordsAfterStart;

        Audit(List<Seen> seen, long tapStart) {
            this.seen = seen;
            for (String topic : AUDITED) {
                twoWriters.put(topic, new ArrayList<>());
                lost.put(topic, new ArrayList<>());
                duplicated.put(topic, new ArrayList<>());
                withoutWriter.put(topic, 0);
                records.put(topic, (int) seen.stream().filter(s -> s.topic().equals(topic)).count());
            }
            writers();
            duplicates();
            lostAgainstServices();
            this.modelRecordsAfterStart = seen.stream().filter(s -> s.topic().equals(Topics.COMPLEXITY_MODEL)).count();
        }

        /** Per key, in offset order: a generation that goes down, or two replicas in one generation. */
        private void writers() {
            Map<String, JsonNode> last = new HashMap<>();
            for (Seen s : ordered()) {
                if (s.value() == null || s.topic().equals(Topics.COMPLEXITY_MODEL)) {
                    continue;
                }
                JsonNode writer = EventCodec.mapper().readTree(s.value()).path("writer");
                if (writer.isMissingNode() || writer.isNull()) {
                    withoutWriter.merge(s.topic(), 1, Integer::sum);
                    continue;
                }
                JsonNode before = last.put(s.topic() + "|" + s.key(), writer);
                if (before == null) {
                    continue;
                }
                long generation = writer.path("generation").asLong();
                long previous = before.path("generation").asLong();
                boolean other = !writer.path("replica").asString("").equals(before.path("replica").asString(""));
                if (generation < previous || (other && generation == previous)) {
                    twoWriters.get(s.topic()).add(s.key() + ": " + before + " then " + writer);
                }
            }
        }

        /** A key written again with the value it had (event id, time and writer aside); a policy version twice. */
        private void duplicates() {
            Map<String, JsonNode> last = new HashMap<>();
            Map<Long, Integer> versions = new HashMap<>();
            for (Seen s : ordered()) {
                if (s.topic().equals(Topics.FALLBACK_POLICY) && s.value() != null) {
                    long version = EventCodec.mapper().readTree(s.value()).path("version").asLong();
                    if (versions.merge(version, 1, Integer::sum) > 1) {
                        duplicated.get(s.topic()).add("version " + version + " written twice");
                    }
                    continue;
                }
                if (!s.topic().equals(Topics.CACHE_KV_INDEX) && !s.topic().equals(Topics.CACHE_SESSIONS)
                        && !s.topic().equals(Topics.CACHE_KV_HOLDINGS)) {
                    continue; // node health repeats itself on purpose (heartbeats)
                }
                JsonNode content = s.value() == null ? null : content(s.value());
                String key = s.topic() + "|" + s.key();
                boolean known = last.containsKey(key);
                JsonNode before = last.put(key, content);
                if (known && java.util.Objects.equals(before, content)) {
                    duplicated.get(s.topic()).add(s.key() + " " + (content == null ? "tombstone" : "value")
                            + " written again at partition " + s.partition() + " offset " + s.offset());
                }
            }
        }

        private static JsonNode content(byte[] value) {
            ObjectNode node = (ObjectNode) EventCodec.mapper().readTree(value);
            node.remove("eventId");
            node.remove("occurredAt");
            node.remove("writer");
            return node;
        }

        /** The latest value per key on each topic against what the services hold at the end. */
        private void lostAgainstServices() {
            Map<String, JsonNode> health = latest(Topics.TELEMETRY_NODE_HEALTH);
            Map<String, String> states = new TreeMap<>();
            for (int port : List.of(18081, 18181)) {
                getJson("http://127.0.0.1:" + port + "/v1/nodes").ifPresent(nodes -> nodes.path("nodes")
                        .forEach(node -> states.putIfAbsent(node.path("nodeId").asString(""),
                                node.path("state").asString(""))));
            }
            states.forEach((node, state) -> {
                JsonNode record = health.get(node);
                if (record == null) {
                    lost.get(Topics.TELEMETRY_NODE_HEALTH).add(node + ": no record (telemetry says " + state + ")");
                } else if (!record.path("state").asString("").equals(state)) {
                    lost.get(Topics.TELEMETRY_NODE_HEALTH).add(node + ": topic says "
                            + record.path("state").asString("") + ", telemetry says " + state);
                }
            });
            Map<String, JsonNode> index = latest(Topics.CACHE_KV_INDEX);
            Map<String, JsonNode> sessions = latest(Topics.CACHE_SESSIONS);
            long pairs = index.values().stream().mapToLong(entry -> entry.path("nodes").size()).sum();
            long holdingPairs = latest(Topics.CACHE_KV_HOLDINGS).values().stream()
                    .mapToLong(entry -> entry.path("nodes").size()).sum();
            if (holdingPairs != pairs) {
                lost.get(Topics.CACHE_KV_INDEX).add("the holdings name " + holdingPairs + " (block, node) pairs, the "
                        + "index " + pairs);
            }
            long ownedPairs = 0;
            for (int port : List.of(18083, 18183)) {
                Optional<JsonNode> stats = getJson("http://127.0.0.1:" + port + "/v1/cache/stats");
                if (stats.isEmpty()) {
                    lost.get(Topics.CACHE_KV_INDEX).add("cache on " + port + " did not answer its stats");
                    continue;
                }
                long blocks = stats.get().path("blocks").asLong(-1);
                long heldPairs = stats.get().path("pairs").asLong(-1);
                long tracked = stats.get().path("sessions").asLong(-1);
                ownedPairs += stats.get().path("ownedPairs").asLong(0);
                if (blocks != index.size() || heldPairs != pairs) {
                    lost.get(Topics.CACHE_KV_INDEX).add("cache on " + port + " holds " + blocks + " blocks / "
                            + heldPairs + " pairs, the topic " + index.size() + " / " + pairs);
                }
                if (tracked != sessions.size()) {
                    lost.get(Topics.CACHE_SESSIONS).add("cache on " + port + " tracks " + tracked
                            + " sessions, the topic holds " + sessions.size());
                }
            }
            if (ownedPairs != pairs) {
                lost.get(Topics.CACHE_KV_HOLDINGS).add("the node owners of both replicas hold " + ownedPairs
                        + " (block, node) pairs, the index " + pairs);
            }
            Map<String, JsonNode> policy = latest(Topics.FALLBACK_POLICY);
            long topicVersion = policy.values().stream().mapToLong(p -> p.path("version").asLong()).max().orElse(-1);
            for (int port : List.of(18084, 18184)) {
                long active = activeVersion(port);
                if (active != topicVersion) {
                    lost.get(Topics.FALLBACK_POLICY).add("fallback on " + port + " runs version " + active
                            + ", the topic's latest is " + topicVersion);
                }
            }
        }

        void acceptedVersions(Set<Long> accepted) {
            Set<Long> onTopic = seen.stream().filter(s -> s.topic().equals(Topics.FALLBACK_POLICY) && s.value() != null)
                    .map(s -> EventCodec.mapper().readTree(s.value()).path("version").asLong())
                    .collect(Collectors.toSet());
            accepted.stream().filter(v -> !onTopic.contains(v)).sorted().forEach(v -> lost.get(Topics.FALLBACK_POLICY)
                    .add("accepted version " + v + " is not on the topic"));
        }

        private Map<String, JsonNode> latest(String topic) {
            Map<String, JsonNode> latest = new HashMap<>();
            for (Seen s : ordered()) {
                if (s.topic().equals(topic)) {
                    if (s.value() == null) {
                        latest.remove(s.key());
                    } else {
                        latest.put(s.key(), EventCodec.mapper().readTree(s.value()));
                    }
                }
            }
            return latest;
        }

        /** Per topic and partition in offset order (the order every reader sees a key's records in). */
        private List<Seen> ordered() {
            List<Seen> sorted = new ArrayList<>(seen);
            sorted.sort(java.util.Comparator.comparing(Seen::topic).thenComparingInt(Seen::partition)
                    .thenComparingLong(Seen::offset));
            return sorted;
        }

        /** The longest time (s) between records of the topic (per key for node health) within [from, to]. */
        double longestSilence(String topic, long from, long to) {
            Map<String, List<Long>> times = new HashMap<>();
            for (Seen s : seen) {
                if (s.topic().equals(topic) && s.timestamp() >= from && s.timestamp() <= to) {
                    times.computeIfAbsent(topic.equals(Topics.TELEMETRY_NODE_HEALTH) ? s.key() : "", k ->
                            new ArrayList<>()).add(s.timestamp());
                }
            }
            long longest = 0;
            for (List<Long> list : times.values()) {
                list.sort(Long::compare);
                long previous = from;
                for (long t : list) {
                    longest = Math.max(longest, t - previous);
                    previous = t;
                }
                longest = Math.max(longest, to - previous);
            }
            return times.isEmpty() ? (to - from) / 1e9 : longest / 1e9;
        }
    }

    // ---- the report -----------------------------------------------------------------------------------------------

    private static boolean report(StringBuilder out, List<Kill> kills, Load load, Audit audit, long baselineStart,
            Path balancerLog) {
        audit.acceptedVersions(load.acceptedVersions);
        List<Outcome> outcomes = new ArrayList<>(load.outcomes);
        long firstKill = kills.get(0).at();
        out.append(String.format(Locale.ROOT, "Chaos run: ./zerolayer up --replicas 2, %d kills (SIGKILL), %d requests "
                + "(%d streaming), %d policy changes, %d node faults; %s%n%n", kills.size(), outcomes.size(),
                outcomes.stream().filter(Outcome::streaming).count(), load.policyWrites.get(), load.faults.get(),
                machine()));
        out.append("| kill | replica | client errors (in flight on the killed router) | node health silent (longest, "
                + "s) | KV index silent (s) | KV index and sessions partitions moved after (s) | sessions silent (s) | policy writes "
                + "refused / longest delay (s) | rejoined after (s) |\n|---|---|---|---|---|---|---|---|---|\n");
        out.append(String.format(Locale.ROOT, "| baseline (%.0f s before the first kill) | — | %d | %.1f | %.1f | — "
                + "| %.1f | — | — |%n", (firstKill - baselineStart) / 1e9, errors(outcomes, baselineStart, firstKill),
                audit.longestSilence(Topics.TELEMETRY_NODE_HEALTH, baselineStart, firstKill),
                audit.longestSilence(Topics.CACHE_KV_INDEX, baselineStart, firstKill),
                audit.longestSilence(Topics.CACHE_SESSIONS, baselineStart, firstKill)));
        int counted = 0;
        int inFlight = 0;
        for (int i = 0; i < kills.size(); i++) {
            Kill kill = kills.get(i);
            long end = kill.phaseEnd();
            int phaseErrors = 0;
            int phaseInFlight = 0;
            for (Outcome o : outcomes) {
                if (o.ok() || o.end() < kill.at() || o.end() >= end) {
                    continue;
                }
                if (kill.module().equals("router-service") && o.start() < kill.at()) {
                    phaseInFlight++;
                } else {
                    phaseErrors++;
                }
            }
            counted += phaseErrors;
            inFlight += phaseInFlight;
            int refusals = 0;
            long delay = 0;
            for (long[] write : load.policyDelays) {
                if (write[1] >= kill.at() && write[1] < end) {
                    refusals += (int) write[2];
                    delay = Math.max(delay, write[1] - write[0]);
                }
            }
            out.append(String.format(Locale.ROOT, "| %d | %s-%d (%s) | %d (%d) | %.1f | %.1f | %s | %.1f | %d / %.1f | "
                    + "%.1f |%n", i + 1, kill.module(), kill.replica(), kill.role(), phaseErrors, phaseInFlight,
                    audit.longestSilence(Topics.TELEMETRY_NODE_HEALTH, kill.at(), end),
                    audit.longestSilence(Topics.CACHE_KV_INDEX, kill.at(), end),
                    kill.handover() == 0 ? "—" : String.format(Locale.ROOT, "%.1f", (kill.handover() - kill.at())
                            / 1e9),
                    audit.longestSilence(Topics.CACHE_SESSIONS, kill.at(), end), refusals, delay / 1e9,
                    (kill.rejoined() - kill.at()) / 1e9));
        }
        out.append("\n| topic | records | keys with two writers | records without a writer | lost | duplicated |\n"
                + "|---|---|---|---|---|---|\n");
        int problems = 0;
        for (String topic : AUDITED) {
            int two = audit.twoWriters.get(topic).size();
            int lost = audit.lost.get(topic).size();
            int dup = topic.equals(Topics.COMPLEXITY_MODEL) ? (int) Math.max(0, audit.modelRecordsAfterStart - 1)
                    : audit.duplicated.get(topic).size();
            problems += two + lost + dup;
            out.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %d | %d | %d |%n", topic,
                    audit.records.get(topic), two, audit.withoutWriter.get(topic), lost, dup));
        }
        List<String> details = new ArrayList<>();
        audit.twoWriters.forEach((topic, list) -> list.stream().limit(5).forEach(d -> details.add(topic
                + " two writers: " + d)));
        audit.lost.forEach((topic, list) -> list.stream().limit(5).forEach(d -> details.add(topic + " lost: " + d)));
        audit.duplicated.forEach((topic, list) -> list.stream().limit(5).forEach(d -> details.add(topic
                + " duplicated: " + d)));
        List<Outcome> failed = outcomes.stream().filter(o -> !o.ok()).toList();
        failed.stream().limit(10).forEach(o -> details.add(clientError(o, kills)));
        if (failed.size() > 10) {
            details.add((failed.size() - 10) + " more client errors");
        }
        if (!details.isEmpty()) {
            out.append("\n");
            details.forEach(d -> out.append("- ").append(d).append('\n'));
        }
        boolean met = counted == 0 && problems == 0;
        out.append(String.format(Locale.ROOT, "%nTargets: client errors outside in-flight requests of a killed router "
                + "%d (target 0; in flight %d), lost + duplicated + two-writer records %d (target 0): %s%n", counted,
                inFlight, problems, met ? "met" : "MISSED"));
        if (counted > 0) {
            appendBalancerLog(out, balancerLog);
        }
        return met;
    }

    /**
     * One client error: plain or stream, its wall-clock start (the balancer log's clock) and when it was sent from the
     * kill whose phase it ended in (negative: in flight at that kill).
     */
    private static String clientError(Outcome o, List<Kill> kills) {
        long wallStart = System.currentTimeMillis() - (System.nanoTime() - o.start()) / 1_000_000;
        String when = "in the baseline";
        for (int i = kills.size() - 1; i >= 0; i--) {
            if (kills.get(i).at() <= o.end()) {
                Kill kill = kills.get(i);
                when = String.format(Locale.ROOT, "%+.2f s from kill %d (%s-%d)", (o.start() - kill.at()) / 1e9,
                        i + 1, kill.module(), kill.replica());
                break;
            }
        }
        return String.format(Locale.ROOT, "client error (%s) sent %s UTC, %s, ended after %.0f ms: %s",
                o.streaming() ? "stream" : "plain", DateTimeFormatter.ISO_LOCAL_TIME.format(LocalTime.ofInstant(
                        Instant.ofEpochMilli(wallStart), ZoneOffset.UTC)), when, (o.end() - o.start()) / 1e6,
                abbreviate(o.problem()));
    }

    /**
     * The router balancer's log (requests that ended abnormally or were tried again, replicas' state changes): its
     * last 40 lines, without the launcher's health polls of the start.
     */
    private static void appendBalancerLog(StringBuilder out, Path log) {
        try {
            List<String> lines = (Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8)
                    : List.<String>of()).stream().filter(l -> !l.contains("\"GET /actuator/health ")).toList();
            out.append(String.format(Locale.ROOT, "%nThe balancer's log (%s; %d lines, the last 40):%n%n", log,
                    lines.size()));
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> out.append("    ").append(l)
                    .append('\n'));
        } catch (IOException e) {
            out.append("\nThe balancer's log could not be read: ").append(e).append('\n');
        }
    }

    private static int errors(List<Outcome> outcomes, long from, long to) {
        return (int) outcomes.stream().filter(o -> !o.ok() && o.end() >= from && o.end() < to).count();
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try (InputStream in = Files.newInputStream(Path.of("/proc/cpuinfo"))) {
            cpu = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse(cpu);
        } catch (IOException e) {
            // the CPU's name is only for the report
        }
        return Runtime.getRuntime().availableProcessors() + " vCPUs, " + cpu;
    }
}
