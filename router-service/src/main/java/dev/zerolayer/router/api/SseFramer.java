package dev.zerolayer.router.api;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts an SSE byte stream, split anywhere by the network, into whole events at each blank line ({@code \n\n} or
 * {@code \r\n\r\n}); a multi-byte character split across chunks stays intact because cuts fall only on newlines.
 */
public final class SseFramer {

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    /** The events completed by this chunk, as text without the terminating blank line. */
    public List<String> add(byte[] chunk) {
        pending.write(chunk, 0, chunk.length);
        byte[] all = pending.toByteArray();
        List<String> events = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < all.length; i++) {
            int end = -1;
            if (all[i] == '\n' && i + 1 < all.length && all[i + 1] == '\n') {
                end = i + 2;
            } else if (all[i] == '\r' && i + 3 < all.length && all[i + 1] == '\n' && all[i + 2] == '\r'
                    && all[i + 3] == '\n') {
                end = i + 4;
            }
            if (end > 0) {
                String text = new String(all, from, i - from, StandardCharsets.UTF_8);
                if (!text.isBlank()) {
                    events.add(text);
                }
                from = end;
                i = end - 1;
            }
        }
        pending.reset();
        pending.write(all, from, all.length - from);
        return events;
    }

    /** What is left after the stream ended (an event without its blank line), or null. */
    public String rest() {
        String text = pending.toString(StandardCharsets.UTF_8);
        pending.reset();
        return text.isBlank() ? null : text;
    }
}
