package dev.zerolayer.platform.topics;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * Before a service relies on its topics, makes sure they exist with the catalogue's cleanup policy: retries in the
 * background while the broker is unreachable (health DOWN meanwhile), and stops the service when a topic has the wrong
 * policy.
 */
public class TopicGuard implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(TopicGuard.class);

    private final ZeroLayerProperties properties;
    private final String bootstrapServers;
    private final Map<String, ?> clientProperties;
    private final Runnable onMismatch;
    private volatile boolean running;
    private volatile boolean ready;
    private volatile String lastProblem = "not checked yet";
    private volatile Instant since = Instant.now();
    private Thread worker;

    public TopicGuard(ZeroLayerProperties properties, String bootstrapServers, Runnable onMismatch) {
        this(properties, bootstrapServers, Map.of(), onMismatch);
    }

    /** With the binder's Kafka client properties (TLS, SASL, ...), used by the guard's admin client as well. */
    public TopicGuard(ZeroLayerProperties properties, String bootstrapServers, Map<String, ?> clientProperties,
            Runnable onMismatch) {
        this.clientProperties = Map.copyOf(clientProperties);
        this.properties = properties;
        this.bootstrapServers = bootstrapServers;
        this.onMismatch = onMismatch;
    }

    /** The topics this service reads or writes, and the dead-letter topics of those it reads. */
    public static List<TopicSpec<?>> topicsOf(String service) {
        LinkedHashSet<TopicSpec<?>> specs = new LinkedHashSet<>(Topics.writtenBy(service));
        for (TopicSpec<?> read : Topics.readBy(service)) {
            specs.add(read);
            specs.add(Topics.deadLetterSpec(read.name(), service));
        }
        return new ArrayList<>(specs);
    }

    @Override
    public void start() {
        running = true;
        worker = new Thread(this::ensureUntilReady, "topic-guard");
        worker.setDaemon(true);
        worker.start();
    }

    private void ensureUntilReady() {
        List<TopicSpec<?>> specs = topicsOf(properties.service());
        Duration backoff = Duration.ofMillis(250);
        try (Admin admin = Admin.create(KafkaClientSecurity.adminConfig(bootstrapServers, clientProperties, 10_000,
                5_000))) {
            TopicProvisioner provisioner = new TopicProvisioner(admin, properties.replicationFactor());
            while (running && !ready) {
                try {
                    if (properties.provisionTopics()) {
                        List<String> created = provisioner.ensure(specs);
                        if (!created.isEmpty()) {
                            log.info("created topics {}", created);
                        }
                    } else {
                        provisioner.ensure(List.of());
                    }
                    since = Instant.now();
                    synchronized (this) {
                        ready = true;
                        notifyAll();
                    }
                    lastProblem = null;
                    log.info("topics verified for {}: {}", properties.service(), specs.size());
                } catch (TopicPolicyMismatchException e) {
                    lastProblem = e.getMessage();
                    log.error("refusing to run: {}", e.getMessage());
                    onMismatch.run();
                    return;
                } catch (BrokerUnavailableException e) {
                    lastProblem = e.getMessage();
                    log.warn("broker not reachable yet ({}); retrying in {} ms", bootstrapServers, backoff.toMillis());
                    sleep(backoff);
                    backoff = min(backoff.multipliedBy(2), properties.brokerRetryBackoff());
                }
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private void sleep(Duration backoff) {
        try {
            Thread.sleep(backoff.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    public boolean ready() {
        return ready;
    }

    /** The broker this service talks to. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The binder's Kafka client settings (TLS, SASL, ...), for every other client the service opens. */
    public Map<String, ?> clientProperties() {
        return clientProperties;
    }

    /** Blocks until the topics are verified. */
    public void awaitReady() throws InterruptedException {
        synchronized (this) {
            while (!ready) {
                wait(1_000);
            }
        }
    }

    @Override
    public Health health() {
        Supplier<Health.Builder> builder = ready ? Health::up : Health::down;
        Health.Builder health = builder.get().withDetail("bootstrapServers", bootstrapServers)
                .withDetail("since", since.toString());
        if (lastProblem != null) {
            health.withDetail("problem", lastProblem);
        }
        return health.build();
    }

    @Override
    public void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }
}
