package dev.zerolayer.contracts.codec;

import dev.zerolayer.contracts.event.Event;
import dev.zerolayer.contracts.event.InvalidEventException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON wire format of every event: ISO-8601 instants, every field written (nulls included), every field required on
 * read except those a record marks optional (a field added later, {@code @JacksonInject(useInput, optional)}: absent
 * reads as null), unknown fields ignored; anything unreadable becomes an {@link InvalidEventException} with a reason that never
 * quotes the payload.
 */
public final class EventCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private EventCodec() {
    }

    /** The shared mapper, configured as above, for callers that need trees or other types in the same format. */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static byte[] encode(Event event) {
        return bytes(event);
    }

    /**
     * Any value in this format, written through the calling thread's reused buffer: the one array allocated is the
     * result (a buffer grown past 64 KiB by a large value is let go).
     */
    public static byte[] bytes(Object value) {
        Output out = OUTPUT.get();
        out.reset();
        MAPPER.writeValue(out, value);
        byte[] bytes = out.toByteArray();
        if (out.capacity() > 65_536) {
            OUTPUT.remove();
        }
        return bytes;
    }

    private static final ThreadLocal<Output> OUTPUT = ThreadLocal.withInitial(Output::new);

    /** A byte array stream whose capacity can be read. */
    private static final class Output extends ByteArrayOutputStream {

        Output() {
            super(8192);
        }

        int capacity() {
            return buf.length;
        }
    }

    public static String encodeToString(Event event) {
        return new String(encode(event), StandardCharsets.UTF_8);
    }

    /** Decodes an event; fails with the reason when the bytes are not a valid event of that type. */
    public static <T extends Event> T decode(byte[] json, Class<T> type) {
        if (json == null || json.length == 0) {
            throw new InvalidEventException("empty payload");
        }
        try {
            T event = MAPPER.readValue(json, type);
            if (event == null) {
                throw new InvalidEventException("payload is JSON null");
            }
            return event;
        } catch (JacksonException e) {
            throw new InvalidEventException(reasonOf(e), e);
        }
    }

    /** Decodes an event and checks that it was published under its own key. */
    public static <T extends Event> T decode(byte[] json, Class<T> type, String recordKey) {
        if (recordKey == null || recordKey.isBlank()) {
            throw new InvalidEventException("missing record key");
        }
        T event = decode(json, type);
        if (!recordKey.equals(event.key())) {
            throw new InvalidEventException("record key does not match the event's key");
        }
        return event;
    }

    private static String reasonOf(JacksonException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidEventException invalid) {
                return invalid.getMessage();
            }
        }
        String message = e.getOriginalMessage();
        return "malformed " + (message == null ? e.getClass().getSimpleName() : firstLine(message));
    }

    /**
     * The first line, with every quoted span that is not a plain field or type name replaced by an ellipsis: a reason
     * names what was wrong but never repeats payload text.
     */
    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        line = QUOTED.matcher(line).replaceAll(m -> NAME.matcher(m.group()).matches()
                ? java.util.regex.Matcher.quoteReplacement(m.group())
                : m.group().charAt(0) + "\u2026" + m.group().charAt(0));
        return line.length() > 200 ? line.substring(0, 200) : line;
    }

    /** A quoted field or type name (kept): an identifier, possibly dotted, of at most 64 characters. */
    private static final java.util.regex.Pattern NAME =
            java.util.regex.Pattern.compile("([\"'`])[A-Za-z_$][A-Za-z0-9_$.]{0,63}\\1");

    /** Double-quoted (with escapes), single-quoted and back-quoted spans of a Jackson message. */
    private static final java.util.regex.Pattern QUOTED =
            java.util.regex.Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"?|'[^']*'?|`[^`]*`?");
}
