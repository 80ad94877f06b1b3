package dev.zerolayer.platform.topics;

import dev.zerolayer.contracts.topics.TopicSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The one place topics are made: creates each missing topic of the catalogue with its partitions, cleanup policy and
 * retention, and refuses (with {@link TopicPolicyMismatchException}) when an existing topic has another cleanup policy.
 */
public final class TopicProvisioner {

    private static final long TIMEOUT_SECONDS = 15;

    private final Admin admin;
    private final short replicationFactor;

    public TopicProvisioner(Admin admin, short replicationFactor) {
        this.admin = admin;
        this.replicationFactor = replicationFactor;
    }

    /** Ensures every topic exists with the right cleanup policy; returns the names it created. */
    public List<String> ensure(Collection<TopicSpec<?>> specs) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<TopicSpec<?>> missing = specs.stream().filter(spec -> !existing.contains(spec.name())).toList();
            List<String> created = create(missing);
            verifyCleanupPolicies(specs.stream().filter(spec -> existing.contains(spec.name())).toList());
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while provisioning topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new BrokerUnavailableException("provisioning topics failed: " + rootMessage(e), e);
        }
    }

    private List<String> create(List<TopicSpec<?>> missing) throws InterruptedException, TimeoutException,
            ExecutionException {
        if (missing.isEmpty()) {
            return List.of();
        }
        List<NewTopic> topics = missing.stream()
                .map(spec -> new NewTopic(spec.name(), spec.partitions(), replicationFactor).configs(spec.kafkaConfigs()))
                .toList();
        List<String> created = new ArrayList<>();
        for (var entry : admin.createTopics(topics).values().entrySet()) {
            try {
                entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                created.add(entry.getKey());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                // Another service created it between our listing and our create: verified below like any other.
            }
        }
        verifyCleanupPolicies(missing);
        return created;
    }

    private void verifyCleanupPolicies(List<TopicSpec<?>> specs) throws InterruptedException, TimeoutException,
            ExecutionException {
        if (specs.isEmpty()) {
            return;
        }
        Map<ConfigResource, TopicSpec<?>> resources = specs.stream().collect(Collectors.toMap(
                spec -> new ConfigResource(ConfigResource.Type.TOPIC, spec.name()), spec -> spec));
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources.keySet()).all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<String> problems = new ArrayList<>();
        resources.forEach((resource, spec) -> {
            ConfigEntry policy = configs.get(resource).get("cleanup.policy");
            String actual = policy == null ? "delete" : policy.value();
            if (!actual.equals(spec.cleanupPolicy().kafkaValue())) {
                problems.add("topic " + spec.name() + " has cleanup.policy=" + actual + " but ZeroLayer needs "
                        + spec.cleanupPolicy().kafkaValue());
            }
        });
        if (!problems.isEmpty()) {
            throw new TopicPolicyMismatchException(String.join("; ", problems));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
