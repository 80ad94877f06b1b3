package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.event.InvalidEventException;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Bad payloads become an InvalidEventException with a reason, and the reason never quotes the payload. */
class EventCodecRejectsTest {

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String sample() throws Exception {
        return EventCodecGoldenTest.read("telemetry-sample");
    }

    @Test
    void rejectsBadJsonWithoutQuotingIt() {
        assertThatThrownBy(() -> EventCodec.decode(bytes("{\"secret-prompt-text\": "), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageStartingWith("malformed")
                .hasMessageNotContaining("secret-prompt-text");
    }

    @Test
    void rejectsUnknownSchemaVersion() throws Exception {
        String json = sample().replace("\"schemaVersion\" : 1", "\"schemaVersion\" : 99");
        assertThatThrownBy(() -> EventCodec.decode(bytes(json), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("unsupported schemaVersion 99");
    }

    @Test
    void rejectsMissingFieldsAndOutOfRangeValues() throws Exception {
        String missing = sample().replace("\"smActive\" : 0.62,", "");
        assertThatThrownBy(() -> EventCodec.decode(bytes(missing), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("smActive");

        String outOfRange = sample().replace("\"smActive\" : 0.62", "\"smActive\" : 1.7");
        assertThatThrownBy(() -> EventCodec.decode(bytes(outOfRange), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("smActive must be a number in [0,1]");

        String nan = sample().replace("\"smActive\" : 0.62", "\"smActive\" : \"NaN\"");
        assertThatThrownBy(() -> EventCodec.decode(bytes(nan), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class);
    }

    @Test
    void rejectsMissingOrMismatchedRecordKey() throws Exception {
        byte[] json = bytes(sample());
        assertThatThrownBy(() -> EventCodec.decode(json, NodeTelemetry.class, null))
                .isInstanceOf(InvalidEventException.class).hasMessage("missing record key");
        assertThatThrownBy(() -> EventCodec.decode(json, NodeTelemetry.class, "other-node"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("does not match");
        assertThat(EventCodec.decode(json, NodeTelemetry.class, "sonnet-1")).isInstanceOf(TelemetrySample.class);
    }

    @Test
    void rejectsEmptyNullAndWrongTypePayloads() {
        assertThatThrownBy(() -> EventCodec.decode(new byte[0], RoutingDecision.class))
                .isInstanceOf(InvalidEventException.class).hasMessage("empty payload");
        assertThatThrownBy(() -> EventCodec.decode(bytes("null"), RoutingDecision.class))
                .isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> EventCodec.decode(bytes("[1,2]"), RoutingDecision.class))
                .isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> EventCodec.decode(bytes("{\"type\":\"nonsense\"}"), NodeTelemetry.class))
                .isInstanceOf(InvalidEventException.class);
    }
}
