package dev.zerolayer.router.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events are cut at blank lines, kept byte for byte with their blank line, however the network split them. */
class SseFramerTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> events) {
        return events.stream().map(event -> new String(event, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void keepsEachEventExactlyAsSentWithItsBlankLineWhateverTheSplit() {
        String stream = "event: a\ndata: Hé\n\nevent: b\r\ndata: {}\r\n\r\n\n\ndata: [DONE]\n\n";
        byte[] all = bytes(stream);
        for (int chunk = 1; chunk <= all.length; chunk++) {
            SseFramer framer = new SseFramer();
            List<byte[]> events = new ArrayList<>();
            for (int at = 0; at < all.length; at += chunk) {
                events.addAll(framer.add(Arrays.copyOfRange(all, at, Math.min(all.length, at + chunk))));
            }
            assertThat(texts(events)).as("chunks of %d bytes", chunk)
                    .containsExactly("event: a\ndata: Hé\n\n", "event: b\r\ndata: {}\r\n\r\n", "data: [DONE]\n\n");
            assertThat(framer.rest()).isNull();
        }
    }

    @Test
    void aChunkThatIsExactlyOneEventIsPassedOnWithoutACopy() {
        byte[] chunk = bytes("event: ping\ndata: {}\n\n");
        List<byte[]> events = new SseFramer().add(chunk);
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isSameAs(chunk);
    }

    @Test
    void anEventLeftWithoutItsBlankLineAtTheEndIsEndedWithOne() {
        SseFramer framer = new SseFramer();
        assertThat(framer.add(bytes("data: 1\n\ndata: 2"))).hasSize(1);
        assertThat(new String(framer.rest(), StandardCharsets.UTF_8)).isEqualTo("data: 2\n\n");
        assertThat(framer.rest()).isNull();
    }
}
