package dev.zerolayer.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared broker extension publishes a reachable broker's address before the tests run. */
@ExtendWith(SharedKafka.class)
class SharedKafkaIT {

    @Test
    void publishesTheAddressOfAWorkingBroker() throws Exception {
        String servers = System.getProperty(SharedKafka.BOOTSTRAP_PROPERTY);
        assertThat(servers).isEqualTo(SharedKafka.broker().bootstrapServers());
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", servers))) {
            admin.createTopics(List.of(new NewTopic("shared.test", 1, (short) 1))).all().get();
        }
        KraftBrokerIT.produce(servers, "shared.test", "a", "1");
        assertThat(KraftBrokerIT.readAll(servers, "shared.test", 1)).containsExactly("a=1");
    }
}
