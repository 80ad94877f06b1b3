package dev.zerolayer.platform.topics;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Command-line provisioning of the whole catalogue plus every service's dead-letter topics, for docker compose and the
 * Helm chart's Job: {@code ProvisionTopics <bootstrap-servers> [replication-factor]}. Exit 0 on success, 2 on a
 * cleanup-policy mismatch, 1 when the broker cannot be reached.
 */
public final class ProvisionTopics {

    private ProvisionTopics() {
    }

    /** Every topic the system uses: the catalogue and each reader's dead-letter topic. */
    public static List<TopicSpec> allWithDeadLetters() {
        List<TopicSpec> specs = new ArrayList<>(Topics.ALL);
        for (TopicSpec spec : Topics.ALL) {
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
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0],
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
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
