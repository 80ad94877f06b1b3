package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/**
 * Every event encodes to exactly its golden file and the golden file decodes back to an equal record. Run with
 * {@code -Dgolden.update=true} to rewrite the files after a deliberate wire change.
 */
class EventCodecGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @TestFactory
    Stream<DynamicTest> everyEventRoundTripsThroughItsGoldenFile() {
        return SampleEvents.all().entrySet().stream().map(entry -> DynamicTest.dynamicTest(entry.getKey(), () -> {
            Path file = GOLDEN.resolve(entry.getKey() + ".json");
            Event event = entry.getValue();
            if (Boolean.getBoolean("golden.update")) {
                Files.writeString(file, EventCodec.mapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(event) + "\n");
            }
            byte[] golden = Files.readAllBytes(file);

            JsonNode encoded = EventCodec.mapper().readTree(EventCodec.encode(event));
            assertThat(encoded).isEqualTo(EventCodec.mapper().readTree(golden));
            assertThat(EventCodec.decode(golden, decodeType(event), event.key())).isEqualTo(event);
        }));
    }

    @org.junit.jupiter.api.Test
    void aNodeHealthRecordWrittenBeforeReplicasStampedThemReadsWithoutAWriter() throws IOException {
        JsonNode golden = EventCodec.mapper().readTree(read("node-health"));
        ((tools.jackson.databind.node.ObjectNode) golden).remove("writer");

        dev.zerolayer.contracts.telemetry.NodeHealth health = EventCodec.decode(
                EventCodec.mapper().writeValueAsBytes(golden), dev.zerolayer.contracts.telemetry.NodeHealth.class,
                "sonnet-1");

        assertThat(health.writer()).isNull();
        assertThat(health.withWriter(new dev.zerolayer.contracts.event.Writer("r", 2)).writer().generation())
                .isEqualTo(2);
    }

    @org.junit.jupiter.api.Test
    void aPolicyVersionWrittenBeforeLeadersStampedThemReadsWithoutAWriter() throws IOException {
        JsonNode golden = EventCodec.mapper().readTree(read("fallback-policy"));
        ((tools.jackson.databind.node.ObjectNode) golden).remove("writer");

        dev.zerolayer.contracts.fallback.FallbackPolicy policy = EventCodec.decode(
                EventCodec.mapper().writeValueAsBytes(golden), dev.zerolayer.contracts.fallback.FallbackPolicy.class,
                "active");

        assertThat(policy.writer()).isNull();
        assertThat(policy.version()).isEqualTo(3);
    }

    @org.junit.jupiter.api.Test
    void aDecisionWrittenBeforeRoutersReportedBreakersReadsWithoutThem() throws IOException {
        JsonNode golden = EventCodec.mapper().readTree(read("routing-decision"));
        golden.get("candidates").forEach(candidate -> ((tools.jackson.databind.node.ObjectNode) candidate)
                .remove("breakerOpen"));

        dev.zerolayer.contracts.router.RoutingDecision decision = EventCodec.decode(
                EventCodec.mapper().writeValueAsBytes(golden), dev.zerolayer.contracts.router.RoutingDecision.class,
                "req-7f3a");

        assertThat(decision.candidates()).hasSize(2)
                .allSatisfy(candidate -> assertThat(candidate.breakerOpen()).isNull());
    }

    @SuppressWarnings("unchecked")
    private static Class<Event> decodeType(Event event) {
        // Telemetry is read as the sealed interface, the way the topic's consumer reads it.
        return (Class<Event>) (event instanceof NodeTelemetry ? NodeTelemetry.class : event.getClass());
    }

    static String read(String name) throws IOException {
        return Files.readString(GOLDEN.resolve(name + ".json"));
    }
}
