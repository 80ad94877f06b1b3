package dev.zerolayer.platform.topics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientSecurityTest {

    @Test
    void binderEnvironmentVariablesBecomeClientPropertiesAndOthersAreIgnored() {
        Map<String, Object> properties = KafkaClientSecurity.fromEnvironment(Map.of(
                "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_SECURITY_PROTOCOL", "SASL_SSL",
                "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_SASL_MECHANISM", "SCRAM-SHA-512",
                "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/ca.p12",
                "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_", "ignored",
                "KAFKA_BOOTSTRAP_SERVERS", "kafka:9093"));

        assertThat(properties).containsExactlyInAnyOrderEntriesOf(Map.of("security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512", "ssl.truststore.location", "/etc/kafka/ca.p12"));
    }

    @Test
    void theAdminConfigKeepsSecuritySettingsButOwnsServersAndTimeouts() {
        Map<String, Object> config = KafkaClientSecurity.adminConfig("kafka:9093",
                Map.of("security.protocol", "SSL", "bootstrap.servers", "elsewhere:1"), 10_000, 5_000);

        assertThat(config).containsEntry("security.protocol", "SSL").containsEntry("bootstrap.servers", "kafka:9093")
                .containsEntry("default.api.timeout.ms", 10_000).containsEntry("request.timeout.ms", 5_000);
    }
}
