package dev.zerolayer.platform.events;

import java.nio.charset.StandardCharsets;

/** A record's key as text: key bytes are UTF-8, a key of any other type is its string form, no key stays null. */
public final class RecordKeys {

    private RecordKeys() {
    }

    public static String text(Object key) {
        if (key instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return key == null ? null : key.toString();
    }
}
