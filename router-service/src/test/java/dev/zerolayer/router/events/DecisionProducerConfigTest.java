package dev.zerolayer.router.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator's client and producer settings apply, except those the publisher's guarantees rest on. */
class DecisionProducerConfigTest {

    @Test
    void operatorSettingsApplyButNotThoseTheGuaranteesNeed() {
        Map<String, Object> config = DecisionProducerConfig.of("broker:9093",
                Map.of("security.protocol", "SSL", "ssl.truststore.location", "/etc/ts.jks"),
                Map.of("linger.ms", "20", "acks", "1", "enable.idempotence", "false", "compression.type", "zstd"));
        assertThat(config).containsEntry("bootstrap.servers", "broker:9093")
                .containsEntry("security.protocol", "SSL").containsEntry("ssl.truststore.location", "/etc/ts.jks")
                .containsEntry("linger.ms", "20").containsEntry("compression.type", "zstd")
                .containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("max.block.ms", "5000").containsEntry("delivery.timeout.ms", "120000")
                .containsEntry("partitioner.ignore.keys", "true");
    }

    @Test
    void decisionsAreCompressedWithLz4UnlessTheOperatorChoseOtherwise() {
        assertThat(DecisionProducerConfig.of("broker:9093", Map.of(), Map.of()))
                .containsEntry("compression.type", "lz4");
    }

    @Test
    void anOperatorMayPartitionByKeyAgain() {
        Map<String, Object> config = DecisionProducerConfig.of("broker:9093", Map.of(),
                Map.of("partitioner.ignore.keys", "false"));

        assertThat(config).containsEntry("partitioner.ignore.keys", "false");
    }
}
