package dev.zerolayer.bench.proxy;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 response at a time from bytes split anywhere: the status, whether the server will close the
 * connection, when the first body byte arrived and when the response ended (by {@code Content-Length}, by the last
 * chunk of a chunked body, or with no body for 1xx/204/304); the body itself is skipped, never stored.
 */
final class ResponseReader {

    private static final int MAX_LINE = 16 * 1024;

    private enum State { STATUS, HEADERS, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS, DONE }

    private final StringBuilder line = new StringBuilder();
    private State state = State.STATUS;
    private int status;
    private long remaining = -1;
    private boolean chunked;
    private boolean closes;
    private boolean bodyStarted;

    /** Ready for the next response on the same connection. */
    void reset() {
        line.setLength(0);
        state = State.STATUS;
        status = 0;
        remaining = -1;
        chunked = false;
        closes = false;
        bodyStarted = false;
    }

    int status() {
        return status;
    }

    /** Whether a body byte has arrived (a response without a body never has one). */
    boolean bodyStarted() {
        return bodyStarted;
    }

    /** Whether the server said it closes the connection after this response. */
    boolean closes() {
        return closes;
    }

    /**
     * Consumes bytes of the current response, up to its end.
     *
     * @return whether the response ended in these bytes (bytes after its end are left in the buffer)
     * @throws IllegalStateException when the bytes are not an HTTP/1.1 response
     */
    boolean feed(ByteBuffer in) {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case FIXED_BODY, CHUNK_DATA -> {
                    bodyStarted = true;
                    int take = (int) Math.min(remaining, in.remaining());
                    in.position(in.position() + take);
                    remaining -= take;
                    if (remaining == 0) {
                        state = state == State.FIXED_BODY ? State.DONE : State.CHUNK_DATA_END;
                    }
                }
                default -> {
                    byte b = in.get();
                    if (b == '\n') {
                        endOfLine();
                    } else if (b != '\r') {
                        if (line.length() >= MAX_LINE) {
                            throw new IllegalStateException("a response line longer than " + MAX_LINE + " bytes");
                        }
                        line.append((char) (b & 0xff));
                    }
                }
            }
        }
        return state == State.DONE;
    }

    private void endOfLine() {
        String text = line.toString();
        line.setLength(0);
        switch (state) {
            case STATUS -> {
                if (!text.startsWith("HTTP/1.") || text.length() < 12) {
                    throw new IllegalStateException("not an HTTP/1.x status line");
                }
                status = Integer.parseInt(text.substring(9, 12));
                closes = text.startsWith("HTTP/1.0");
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (!text.isEmpty()) {
                    header(text);
                } else if (status / 100 == 1) {
                    // an interim response: the real one follows
                    state = State.STATUS;
                } else if (status == 204 || status == 304) {
                    state = State.DONE;
                } else if (chunked) {
                    state = State.CHUNK_SIZE;
                } else if (remaining > 0) {
                    state = State.FIXED_BODY;
                } else if (remaining == 0) {
                    state = State.DONE;
                } else {
                    throw new IllegalStateException("a response with neither a length nor chunks");
                }
            }
            case CHUNK_SIZE -> {
                int extension = text.indexOf(';');
                long size = Long.parseLong((extension < 0 ? text : text.substring(0, extension)).trim(), 16);
                if (size == 0) {
                    state = State.TRAILERS;
                } else {
                    remaining = size;
                    state = State.CHUNK_DATA;
                }
            }
            case CHUNK_DATA_END -> state = State.CHUNK_SIZE;
            case TRAILERS -> {
                if (text.isEmpty()) {
                    state = State.DONE;
                }
            }
            default -> throw new IllegalStateException("unexpected state " + state);
        }
    }

    private void header(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException("a header without a name");
        }
        String name = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1).trim();
        switch (name) {
            case "content-length" -> remaining = Long.parseLong(value);
            case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
            case "connection" -> closes = value.equalsIgnoreCase("close");
            default -> {
            }
        }
    }
}
