package dev.zerolayer.router.wire;

import dev.zerolayer.router.dispatch.Dispatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts an SSE byte stream, split anywhere by the network, into whole events at each blank line ({@code \n\n} or
 * {@code \r\n\r\n}), each event's bytes kept exactly as sent with the blank line that ended it, so an event passed on
 * unchanged costs no decoding; a multi-byte character split across chunks stays intact because cuts fall only on
 * newlines.
 */
public final class SseFramer {

    private static final byte[] NONE = new byte[0];

    private byte[] pending = NONE;

    /** The events completed by this chunk, each with its terminating blank line; blank events are dropped. */
    public List<byte[]> add(byte[] chunk) {
        byte[] all = pending.length == 0 ? chunk : Dispatcher.concat(List.of(pending, chunk));
        List<byte[]> events = new ArrayList<>(4);
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
                if (!blank(all, from, i)) {
                    events.add(from == 0 && end == all.length ? all : Arrays.copyOfRange(all, from, end));
                }
                from = end;
                i = end - 1;
            }
        }
        pending = from == all.length ? NONE : Arrays.copyOfRange(all, from, all.length);
        return events;
    }

    /** What is left after the stream ended (an event without its blank line), ended with one, or null. */
    public byte[] rest() {
        byte[] left = pending;
        pending = NONE;
        if (blank(left, 0, left.length)) {
            return null;
        }
        byte[] ended = Arrays.copyOf(left, left.length + 2);
        ended[left.length] = '\n';
        ended[left.length + 1] = '\n';
        return ended;
    }

    private static boolean blank(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
