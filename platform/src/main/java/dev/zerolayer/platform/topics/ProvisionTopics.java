package dev.zerolayer.platform.topics;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/**
 * Command-line provisioning of the whole catalogue plus every service's dead-letter topics, for docker compose and the
 * Helm chart's Job: {@code ProvisionTopics <bootstrap-servers> [replication-factor]}. Exit 0 on success, 2 on a
 * cleanup-policy mismatch, 1 when the broker cannot be reached. TLS/SASL client settings come from the binder's
 * environment variables ({@link KafkaClientSecurity}).
 */
public final class ProvisionTopics {

    private ProvisionTopics() {
    }

    /** Every topic the system uses: the catalogue and each reader's dead-letter topic. */
    public static List<TopicSpec<?>> allWithDeadLetters() {
        List<TopicSpec<?>> specs = new ArrayList<>(Topics.ALL);
        for (TopicSpec<?> spec : Topics.ALL) {
            for (String reader : spec.readers()) {
                specs.add(Topics.deadLetterSpec(spec.name(), reader));
            }
        }
        return specs;
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: ProvisionTopics <bootstrap-servers> [replication-factor]");
            System.exit(64);
        }
        short replication = args.length > 1 ? Short.parseShort(args[1]) : 1;
        try (Admin admin = Admin.create(KafkaClientSecurity.adminConfig(args[0],
                KafkaClientSecurity.fromEnvironment(System.getenv()), 30_000, 10_000))) {
            List<String> created = new TopicProvisioner(admin, replication).ensure(allWithDeadLetters());
            System.out.println("topics ready; created " + created.size() + ": " + created);
        } catch (TopicPolicyMismatchException e) {
            System.err.println("refusing: " + e.getMessage());
            System.exit(2);
        } catch (BrokerUnavailableException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }
}
