package dev.zerolayer.platform.events;

import static dev.zerolayer.platform.testing.BatchMessages.batch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.testing.BatchMessages.Rec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;

/** Each record of a batch is applied once, in order; one that does not decode or fails to apply is refused alone. */
class EventBatchTest {

    private static final String TOPIC = Topics.CACHE_PREWARM;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final EventReader reader = new EventReader(meters);
    private final List<String> refused = new ArrayList<>();
    private final DeadLetters deadLetters = new DeadLetters(null, "test-group") {
        @Override
        public boolean send(InboundRecord record, String reason) {
            refused.add(record.offset() + " " + record.key() + " " + reason);
            return true;
        }
    };

    @Test
    void appliesGoodRecordsInOrderAndRefusesTheUnreadableAndTheFailedOnesAlone() {
        // Given a batch: good, not JSON, good whose handling throws, good
        List<String> applied = new ArrayList<>();
        Message<List<byte[]>> batch = batch(TOPIC, command("node-a"), new Rec("node-x", "{nope".getBytes(
                StandardCharsets.UTF_8)), command("node-boom"), command("node-c"));

        // When it is read
        int count = EventBatch.forEach(batch, Topics.CACHE_PREWARM_TOPIC, reader, deadLetters, command -> {
            if (command.nodeId().equals("node-boom")) {
                throw new IllegalStateException("boom: " + command.sessionHash());
            }
            applied.add(command.nodeId());
        });

        // Then the good ones are applied in order, each refused record is dead-lettered with a reason that names the
        // failure and not the content, and every refusal is counted
        assertThat(applied).containsExactly("node-a", "node-c");
        assertThat(count).isEqualTo(2);
        assertThat(refused).hasSize(2);
        assertThat(refused.get(0)).startsWith("1 node-x malformed");
        assertThat(refused.get(1)).isEqualTo("2 node-boom not applied: IllegalStateException");
        assertThat(meters.find("zerolayer.events.rejected").counters().stream().mapToDouble(Counter::count).sum())
                .isEqualTo(2.0);
    }

    private static Rec command(String node) {
        return new Rec(node, EventCodec.encode(new PrewarmCommand(UUID.randomUUID().toString(), Instant.now(), 1,
                node, "session-hash", List.of(1L, 2L), "test")));
    }
}
