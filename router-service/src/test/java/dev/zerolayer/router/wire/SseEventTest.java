package dev.zerolayer.router.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An event's text parses whatever its line endings, drops comments, joins data lines, and writes back in LF form. */
class SseEventTest {

    @Test
    void parsesTheNameAndTheDataWithEveryLineEnding() {
        for (String newline : new String[] {"\n", "\r\n", "\r"}) {
            SseEvent event = SseEvent.parse("event: content_block_delta" + newline + "data: {\"a\":1}");
            assertThat(event.event()).as("line ending %s", newline.replace("\r", "CR").replace("\n", "LF"))
                    .isEqualTo("content_block_delta");
            assertThat(event.data()).isEqualTo("{\"a\":1}");
        }
    }

    @Test
    void joinsDataLinesDropsCommentsAndKeepsEmptyData() {
        SseEvent event = SseEvent.parse(": keep-alive\r\ndata:first\r\ndata:  second\r\n\r\ndata:");
        assertThat(event.event()).isNull();
        assertThat(event.data()).isEqualTo("first\n second\n");
        assertThat(SseEvent.parse(": only a comment").data()).isNull();
        assertThat(SseEvent.parse("data: [DONE]").data()).isEqualTo("[DONE]");
    }

    @Test
    void writesEachDataLineOnItsOwnAndEndsWithTheBlankLine() {
        String wire = new String(new SseEvent("message_stop", "a\nb").bytes(), StandardCharsets.UTF_8);
        assertThat(wire).isEqualTo("event: message_stop\ndata: a\ndata: b\n\n");
        assertThat(new String(new SseEvent(null, "Hé").bytes(), StandardCharsets.UTF_8)).isEqualTo("data: Hé\n\n");
        SseEvent back = SseEvent.parse(wire.substring(0, wire.length() - 2));
        assertThat(back).isEqualTo(new SseEvent("message_stop", "a\nb"));
    }
}
