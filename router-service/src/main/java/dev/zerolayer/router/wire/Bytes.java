package dev.zerolayer.router.wire;

/** Finding byte runs in raw wire bytes (bodies, stream events) without decoding them. */
public final class Bytes {

    private Bytes() {
    }

    /** Whether {@code bytes} holds {@code prefix} at {@code at}. */
    public static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        if (bytes.length - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Where {@code part} first occurs in {@code bytes} at or after {@code from}; -1 when it does not. */
    public static int indexOf(byte[] bytes, byte[] part, int from) {
        for (int at = from; at <= bytes.length - part.length; at++) {
            if (startsWith(bytes, at, part)) {
                return at;
            }
        }
        return -1;
    }
}
