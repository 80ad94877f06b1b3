package dev.zerolayer.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/** Where a Docker engine exists, the same round trip against Testcontainers Kafka; skipped cleanly where none does. */
@Testcontainers(disabledWithoutDocker = true)
class ContainerKafkaIT {

    @Test
    void containerBrokerCarriesARecord() throws Exception {
        try (ContainerKafka kafka = ContainerKafka.launch()) {
            String servers = kafka.bootstrapServers();
            KraftBrokerIT.produce(servers, "tc.test", "k", "v");
            assertThat(KraftBrokerIT.readAll(servers, "tc.test", 1)).containsExactly("k=v");
        }
    }
}
