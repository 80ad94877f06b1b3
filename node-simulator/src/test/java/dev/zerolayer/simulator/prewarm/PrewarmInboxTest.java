package dev.zerolayer.simulator.prewarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.events.PoisonEventException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/** The inbox counts every command of a node but keeps only the latest ones; poison changes nothing. */
class PrewarmInboxTest {

    private final PrewarmInbox inbox = new PrewarmInbox(new EventReader(new SimpleMeterRegistry()));

    @Test
    void countsEveryCommandAndKeepsTheLatestPerNode() {
        // Given more commands for one node than are kept, and one for another node
        int sent = PrewarmInbox.KEPT_PER_NODE + 5;
        for (int i = 0; i < sent; i++) {
            inbox.accept(message(prewarm("n1", "sess-" + i)));
        }
        inbox.accept(message(prewarm("n2", "sess-x")));

        // Then all are counted, the oldest are dropped from the list, and nodes are apart
        assertThat(inbox.node("n1").received()).isEqualTo(sent);
        assertThat(inbox.node("n1").latest()).hasSize(PrewarmInbox.KEPT_PER_NODE);
        assertThat(inbox.node("n1").latest().get(0).sessionHash()).isEqualTo("sess-5");
        assertThat(inbox.node("n1").latest().get(PrewarmInbox.KEPT_PER_NODE - 1).sessionHash())
                .isEqualTo("sess-" + (sent - 1));
        assertThat(inbox.node("n2").latest()).extracting(PrewarmCommand::sessionHash).containsExactly("sess-x");
        assertThat(inbox.node("n3").received()).isZero();
        assertThat(inbox.nodes()).containsOnlyKeys("n1", "n2");
    }

    @Test
    void poisonIsRefusedAndRecordsNothing() {
        // When a record is not JSON
        Message<byte[]> junk = MessageBuilder.withPayload("{nope".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_KEY, "n1".getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_PREWARM).build();

        // Then it is refused for dead-lettering and no node is recorded
        assertThatThrownBy(() -> inbox.accept(junk)).isInstanceOf(PoisonEventException.class)
                .hasMessageContaining("malformed");
        assertThat(inbox.nodes()).isEmpty();
    }

    private static Message<byte[]> message(PrewarmCommand command) {
        return MessageBuilder.withPayload(EventCodec.encode(command))
                .setHeader(KafkaHeaders.RECEIVED_KEY, command.key().getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_PREWARM).build();
    }

    private static PrewarmCommand prewarm(String node, String session) {
        return new PrewarmCommand(UUID.randomUUID().toString(), Instant.now(), 1, node, session, List.of(1L, 2L),
                "test");
    }
}
