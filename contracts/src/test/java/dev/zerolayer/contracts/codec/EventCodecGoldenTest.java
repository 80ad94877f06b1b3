package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

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

    @Test
    void bytesThroughTheReusedBufferAreTheMappersOwnWhateverWasWrittenBefore() {
        String large = "x".repeat(100_000);

        assertThat(EventCodec.bytes(large)).isEqualTo(EventCodec.mapper().writeValueAsBytes(large));
        assertThat(EventCodec.bytes("y")).isEqualTo("\"y\"".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (Event event : SampleEvents.all().values()) {
            assertThat(EventCodec.bytes(event)).isEqualTo(EventCodec.mapper().writeValueAsBytes(event));
            assertThat(EventCodec.encode(event)).isEqualTo(EventCodec.mapper().writeValueAsBytes(event));
        }
    }

    @Test
    void aNodeHealthRecordWrittenBeforeReplicasStampedThemReadsWithoutAWriter() throws IOException {
        NodeHealth health = olderGolden("node-health", NodeHealth.class,
                golden -> ((ObjectNode) golden).remove("writer"));

        assertThat(health.writer()).isNull();
        assertThat(health.withWriter(new Writer("r", 2)).writer().generation()).isEqualTo(2);
    }

    @Test
    void aPolicyVersionWrittenBeforeLeadersStampedThemReadsWithoutAWriter() throws IOException {
        FallbackPolicy policy = olderGolden("fallback-policy", FallbackPolicy.class,
                golden -> ((ObjectNode) golden).remove("writer"));

        assertThat(policy.writer()).isNull();
        assertThat(policy.version()).isEqualTo(3);
    }

    @Test
    void cacheRecordsWrittenBeforeReplicasStampedThemReadWithoutAWriter() throws IOException {
        KvIndexEntry entry = olderGolden("kv-index-entry", KvIndexEntry.class,
                golden -> ((ObjectNode) golden).remove("writer"));
        SessionEntry session = olderGolden("session-entry", SessionEntry.class,
                golden -> ((ObjectNode) golden).remove("writer"));

        assertThat(entry.writer()).isNull();
        assertThat(entry.nodes()).containsExactly("haiku-1", "haiku-2");
        assertThat(session.writer()).isNull();
        assertThat(session.sameAffinity(session.withWriter(new Writer("r", 1)))).isTrue();
    }

    @Test
    void aDecisionWrittenBeforeRoutersReportedBreakersReadsWithoutThem() throws IOException {
        RoutingDecision decision = olderGolden("routing-decision", RoutingDecision.class,
                golden -> golden.get("candidates").forEach(candidate -> ((ObjectNode) candidate)
                        .remove("breakerOpen")));

        assertThat(decision.candidates()).hasSize(2)
                .allSatisfy(candidate -> assertThat(candidate.breakerOpen()).isNull());
    }

    /** A golden record as a writer from before a field was added wrote it: {@code strip} takes the field out. */
    private static <T extends Event> T olderGolden(String name, Class<T> type, Consumer<JsonNode> strip)
            throws IOException {
        JsonNode golden = EventCodec.mapper().readTree(read(name));
        strip.accept(golden);
        return EventCodec.decode(EventCodec.mapper().writeValueAsBytes(golden), type,
                SampleEvents.all().get(name).key());
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
