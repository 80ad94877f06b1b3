package dev.zerolayer.kafka.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka broker in KRaft combined mode (broker + controller) running in this JVM from Kafka's own
 * artifacts. Its storage is formatted once (only while {@code meta.properties} is missing), its ports stay fixed for its
 * lifetime, so it can be stopped and started again with its data, the way a restarted broker behaves.
 */
public final class KraftBroker implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final Map<String, String> overrides;
    private final Map<String, String> clientProperties;
    private KafkaRaftServer server;

    private KraftBroker(Path dataDir, int port, int controllerPort, Map<String, String> overrides,
            Map<String, String> clientProperties) {
        this.dataDir = dataDir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.overrides = Map.copyOf(overrides);
        this.clientProperties = Map.copyOf(clientProperties);
    }

    /**
     * A broker on the given ports (0 picks a free port now, kept across restarts) with its log under {@code dataDir}.
     *
     * @throws PortInUseException when a requested port is taken
     */
    public static KraftBroker create(Path dataDir, int port, int controllerPort, Map<String, String> overrides) {
        int brokerPort = port == 0 ? freePort() : requireFree(port);
        int cport = controllerPort == 0 ? freePort() : requireFree(controllerPort);
        return new KraftBroker(dataDir, brokerPort, cport, overrides, Map.of());
    }

    /**
     * A broker whose only client listener is SASL_PLAINTEXT with the PLAIN mechanism (inter-broker traffic on it too;
     * the controller listener stays PLAINTEXT), accepting {@code username}/{@code password}: a client without these
     * credentials is refused. Free ports; {@link #clientProperties()} are the settings a client needs.
     */
    public static KraftBroker createSaslPlain(Path dataDir, String username, String password) {
        return createSaslPlain(dataDir, username, password, Map.of(), Map.of());
    }

    /**
     * A SASL_PLAINTEXT broker, as {@link #createSaslPlain(Path, String, String)}, that authorizes every request by
     * ACL (KRaft's {@code StandardAuthorizer}; nothing is allowed where no ACL allows it): {@code username} is a super
     * user (its {@link #clientProperties()} can grant and revoke), each of {@code others} (name to password) may do only
     * what ACLs grant it. The controller listener, on loopback only, is trusted as it is for the broker itself.
     */
    public static KraftBroker createSaslPlainWithAcls(Path dataDir, String username, String password,
            Map<String, String> others) {
        Map<String, String> authorizer = new java.util.LinkedHashMap<>();
        authorizer.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        // the broker's own user, the controller listener's unauthenticated loopback peer and the admin
        authorizer.put("super.users", "User:broker;User:ANONYMOUS;User:" + username);
        authorizer.put("allow.everyone.if.no.acl.found", "false");
        return createSaslPlain(dataDir, username, password, others, authorizer);
    }

    private static KraftBroker createSaslPlain(Path dataDir, String username, String password,
            Map<String, String> others, Map<String, String> overrides) {
        int brokerPort = freePort();
        int cport = freePort();
        String brokerUser = "broker";
        String brokerPassword = "broker-" + UUID.randomUUID();
        Map<String, String> listeners = new java.util.LinkedHashMap<>();
        listeners.put("listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + cport);
        listeners.put("advertised.listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort);
        listeners.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        listeners.put("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        listeners.put("sasl.enabled.mechanisms", "PLAIN");
        listeners.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        StringBuilder users = new StringBuilder(" user_" + brokerUser + "=\"" + brokerPassword + "\" user_" + username
                + "=\"" + password + "\"");
        others.forEach((name, secret) -> users.append(" user_").append(name).append("=\"").append(secret).append('"'));
        listeners.put("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                plainJaas(brokerUser, brokerPassword).replace(";", users + ";"));
        listeners.putAll(overrides);
        return new KraftBroker(dataDir, brokerPort, cport, listeners, saslPlainClient(username, password));
    }

    /** The client settings for a SASL_PLAINTEXT listener with the PLAIN mechanism and these credentials. */
    public static Map<String, String> saslPlainClient(String username, String password) {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", plainJaas(username, password));
    }

    private static String plainJaas(String username, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + username
                + "\" password=\"" + password + "\";";
    }

    public static KraftBroker create(Path dataDir) {
        return create(dataDir, 0, 0, Map.of());
    }

    public synchronized KraftBroker start() {
        if (server != null) {
            return this;
        }
        Properties props = brokerProperties();
        formatStorageIfNeeded(props);
        KafkaRaftServer raftServer = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        raftServer.startup();
        server = raftServer;
        awaitReady();
        return this;
    }

    /** Stops the broker and waits for it; the data stays, so {@link #start()} brings the same topics and offsets back. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        KafkaRaftServer running = server;
        server = null;
        running.shutdown();
        running.awaitShutdown();
    }

    public synchronized boolean running() {
        return server != null;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** What a client needs besides the bootstrap servers (security protocol, SASL); empty for a plaintext broker. */
    public Map<String, String> clientProperties() {
        return clientProperties;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    @Override
    public void close() {
        stop();
    }

    private Properties brokerProperties() {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", dataDir.resolve("log").toString());
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "3");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.cleaner.backoff.ms", "500");
        props.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        props.put("log.cleaner.threads", "1");
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "2");
        props.put("num.recovery.threads.per.data.dir", "1");
        props.put("controlled.shutdown.enable", "false");
        props.putAll(overrides);
        return props;
    }

    private void formatStorageIfNeeded(Properties props) {
        Path logDir = dataDir.resolve("log");
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return;
        }
        try {
            Files.createDirectories(logDir);
            Path config = dataDir.resolve("server.properties");
            try (var out = Files.newOutputStream(config)) {
                props.store(out, "ZeroLayer embedded KRaft broker");
            }
            String clusterId = org.apache.kafka.common.Uuid.randomUuid().toString();
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int exit = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", config.toString()},
                    new PrintStream(output, true, StandardCharsets.UTF_8));
            if (exit != 0) {
                throw new IllegalStateException("formatting Kafka storage in " + logDir + " failed: "
                        + output.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("formatting Kafka storage failed", e);
        }
    }

    private void awaitReady() {
        Properties adminProps = new Properties();
        adminProps.putAll(clientProperties);
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        adminProps.put(AdminClientConfig.CLIENT_ID_CONFIG, "kraft-broker-ready-" + UUID.randomUUID());
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(adminProps)) {
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception notYet) {
                    if (notYet instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for the broker");
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Kafka broker on " + bootstrapServers() + " not ready within "
                            + READY_TIMEOUT.toSeconds() + " s");
                }
            }
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails fast, naming the port, when something already listens on it. */
    public static int requireFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            return port;
        } catch (IOException e) {
            throw new PortInUseException(port);
        }
    }
}
