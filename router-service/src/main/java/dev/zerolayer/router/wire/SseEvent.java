package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;

/** One server-sent event: its {@code event:} name (null when none) and its {@code data:} lines joined by newlines. */
public record SseEvent(String event, String data) {

    /** Parses one event's text (without the blank line that ended it); comment lines are dropped. */
    public static SseEvent parse(String text) {
        String event = null;
        StringBuilder data = null;
        int length = text.length();
        int at = 0;
        while (at <= length) {
            int end = at;
            while (end < length && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
                end++;
            }
            if (text.startsWith("event:", at)) {
                event = text.substring(at + 6, end).trim();
            } else if (text.startsWith("data:", at)) {
                int from = at + 5 < end && text.charAt(at + 5) == ' ' ? at + 6 : at + 5;
                data = data == null ? new StringBuilder(end - from).append(text, from, end)
                        : data.append('\n').append(text, from, end);
            }
            // a line ends with CRLF, LF or CR
            at = end < length && text.charAt(end) == '\r' && end + 1 < length && text.charAt(end + 1) == '\n'
                    ? end + 2 : end + 1;
        }
        return new SseEvent(event, data == null ? null : data.toString());
    }

    /** The data as a JSON object, or null when it is none (absent, {@code [DONE]}, malformed, another JSON value). */
    public ObjectNode json() {
        if (data == null) {
            return null;
        }
        try {
            return EventCodec.mapper().readTree(data) instanceof ObjectNode object ? object : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    /** The wire form, ending with the blank line. */
    public byte[] bytes() {
        StringBuilder out = new StringBuilder((event == null ? 0 : event.length() + 8)
                + (data == null ? 0 : data.length() + 8) + 1);
        if (event != null) {
            out.append("event: ").append(event).append('\n');
        }
        if (data != null) {
            int from = 0;
            for (int newline = data.indexOf('\n'); newline >= 0; newline = data.indexOf('\n', from)) {
                out.append("data: ").append(data, from, newline).append('\n');
                from = newline + 1;
            }
            out.append("data: ").append(data, from, data.length()).append('\n');
        }
        return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
}
