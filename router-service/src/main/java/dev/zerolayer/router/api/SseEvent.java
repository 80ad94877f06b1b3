package dev.zerolayer.router.api;

import java.nio.charset.StandardCharsets;

/** One server-sent event: its {@code event:} name (null when none) and its {@code data:} lines joined by newlines. */
public record SseEvent(String event, String data) {

    /** Parses one event's text (without the blank line that ended it); comment lines are dropped. */
    public static SseEvent parse(String text) {
        String event = null;
        StringBuilder data = null;
        for (String line : text.split("\r?\n")) {
            if (line.startsWith("event:")) {
                event = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return new SseEvent(event, data == null ? null : data.toString());
    }

    /** The wire form, ending with the blank line. */
    public byte[] bytes() {
        StringBuilder out = new StringBuilder();
        if (event != null) {
            out.append("event: ").append(event).append('\n');
        }
        if (data != null) {
            for (String line : data.split("\n", -1)) {
                out.append("data: ").append(line).append('\n');
            }
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
}
