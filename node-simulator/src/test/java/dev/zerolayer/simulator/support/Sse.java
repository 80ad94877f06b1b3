package dev.zerolayer.simulator.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads Server-Sent Events frames (optional {@code event:} name, {@code data:} payload) and when each arrived. */
public final class Sse {

    /** One frame: its event name (null when the stream names none), data, and arrival in nanoseconds. */
    public record Frame(String event, String data, long arrivedNanos) {
    }

    private Sse() {
    }

    /** Every frame of a complete SSE text. */
    public static List<Frame> parse(String text) {
        try {
            return read(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Frames read from a live stream until it ends (or breaks: what arrived until then). */
    public static List<Frame> read(InputStream in) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String event = null;
            StringBuilder data = null;
            String line;
            while (true) {
                try {
                    line = reader.readLine();
                } catch (IOException broken) {
                    break;
                }
                if (line == null) {
                    break;
                }
                if (line.isEmpty()) {
                    if (data != null) {
                        frames.add(new Frame(event, data.toString(), System.nanoTime()));
                    }
                    event = null;
                    data = null;
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    String value = line.substring(5).strip();
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            if (data != null) {
                frames.add(new Frame(event, data.toString(), System.nanoTime()));
            }
        }
        return frames;
    }
}
