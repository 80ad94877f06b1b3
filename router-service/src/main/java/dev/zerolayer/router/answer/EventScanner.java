package dev.zerolayer.router.answer;

import java.nio.charset.StandardCharsets;

/**
 * Reads the events that make most of an Anthropic stream straight from their bytes, without a JSON parser: a content
 * delta of a known kind ({@code {"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}}, keys
 * in any order), {@code content_block_stop} with its index and {@code message_stop}; anything else, or anything not
 * plainly one of these (a duplicate or unknown key, a number that is not a plain index, malformed UTF-8 or JSON), is
 * null, for the full parser to read.
 */
final class EventScanner {

    private static final byte[] TYPE = ascii("type");
    private static final byte[] INDEX = ascii("index");
    private static final byte[] DELTA = ascii("delta");
    private static final byte[] CONTENT_BLOCK_DELTA = ascii("content_block_delta");
    private static final byte[] CONTENT_BLOCK_STOP = ascii("content_block_stop");
    private static final byte[] MESSAGE_STOP = ascii("message_stop");
    private static final AnswerEvent.Kind[] KINDS = AnswerEvent.Kind.values();
    private static final byte[][] KIND_TYPES = new byte[KINDS.length][];
    private static final byte[][] KIND_FIELDS = new byte[KINDS.length][];
    private static final AnswerEvent STOP = new AnswerEvent.Stop();

    static {
        for (int i = 0; i < KINDS.length; i++) {
            KIND_TYPES[i] = ascii(KINDS[i].wireType());
            KIND_FIELDS[i] = ascii(KINDS[i].field());
        }
    }

    private final byte[] bytes;
    private final int end;
    private int at;

    private EventScanner(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.at = offset;
        this.end = offset + length;
    }

    /** The event the bytes plainly are, or null for the full parser. */
    static AnswerEvent read(byte[] bytes, int offset, int length) {
        try {
            return new EventScanner(bytes, offset, length).event();
        } catch (Unreadable e) {
            return null;
        }
    }

    /** Not one of the plain shapes: thrown without a stack, caught at once. */
    private static final class Unreadable extends RuntimeException {
        private static final Unreadable INSTANCE = new Unreadable();

        private Unreadable() {
            super(null, null, false, false);
        }
    }

    private static Unreadable unreadable() {
        return Unreadable.INSTANCE;
    }

    private AnswerEvent event() {
        int typeStart = -1;
        int typeEnd = -1;
        int index = -1;
        int kind = -1;
        String value = null;
        boolean delta = false;
        expect('{');
        if (peek() == '}') {
            throw unreadable();
        }
        do {
            int keyStart = plainString();
            int keyEnd = at - 1;
            expect(':');
            if (is(keyStart, keyEnd, TYPE) && typeStart < 0) {
                typeStart = plainString();
                typeEnd = at - 1;
            } else if (is(keyStart, keyEnd, INDEX) && index < 0) {
                index = plainIndex();
            } else if (is(keyStart, keyEnd, DELTA) && !delta) {
                delta = true;
                expect('{');
                int deltaKind = -1;
                int fieldStart = -1;
                int fieldEnd = -1;
                do {
                    int innerStart = plainString();
                    int innerEnd = at - 1;
                    expect(':');
                    if (is(innerStart, innerEnd, TYPE) && deltaKind < 0) {
                        int wireStart = plainString();
                        deltaKind = kindOf(wireStart, at - 1);
                    } else if (fieldStart < 0) {
                        fieldStart = innerStart;
                        fieldEnd = innerEnd;
                        value = string();
                    } else {
                        throw unreadable();
                    }
                } while (another());
                if (deltaKind < 0 || fieldStart < 0 || !is(fieldStart, fieldEnd, KIND_FIELDS[deltaKind])) {
                    throw unreadable();
                }
                kind = deltaKind;
            } else {
                throw unreadable();
            }
        } while (another());
        skipSpace();
        if (at != end || typeStart < 0) {
            throw unreadable();
        }
        if (is(typeStart, typeEnd, CONTENT_BLOCK_DELTA) && index >= 0 && kind >= 0) {
            return new AnswerEvent.BlockDelta(index, KINDS[kind], value);
        }
        if (is(typeStart, typeEnd, CONTENT_BLOCK_STOP) && index >= 0 && !delta) {
            return new AnswerEvent.BlockStop(index);
        }
        if (is(typeStart, typeEnd, MESSAGE_STOP) && index < 0 && !delta) {
            return STOP;
        }
        throw unreadable();
    }

    private int kindOf(int from, int to) {
        for (int i = 0; i < KINDS.length; i++) {
            if (is(from, to, KIND_TYPES[i])) {
                return i;
            }
        }
        throw unreadable();
    }

    /** After an object's member: true on a comma (another member follows), false on the closing brace. */
    private boolean another() {
        skipSpace();
        if (at < end && bytes[at] == ',') {
            at++;
            return true;
        }
        if (at < end && bytes[at] == '}') {
            at++;
            return false;
        }
        throw unreadable();
    }

    private void expect(char c) {
        skipSpace();
        if (at >= end || bytes[at] != c) {
            throw unreadable();
        }
        at++;
    }

    private int peek() {
        skipSpace();
        return at < end ? bytes[at] : -1;
    }

    private void skipSpace() {
        while (at < end && (bytes[at] == ' ' || bytes[at] == '\n' || bytes[at] == '\r' || bytes[at] == '\t')) {
            at++;
        }
    }

    /** A string of printable ASCII without escapes (a key or a type): its first byte; {@code at} is past its quote. */
    private int plainString() {
        expect('"');
        int start = at;
        while (at < end) {
            byte b = bytes[at];
            if (b == '"') {
                at++;
                return start;
            }
            if (b < 0x20 || b == '\\') {
                throw unreadable();
            }
            at++;
        }
        throw unreadable();
    }

    /** A non-negative int written plainly: 0, or digits without a leading zero; no sign, fraction or exponent. */
    private int plainIndex() {
        skipSpace();
        int start = at;
        long value = 0;
        while (at < end && bytes[at] >= '0' && bytes[at] <= '9') {
            value = value * 10 + (bytes[at] - '0');
            if (value > Integer.MAX_VALUE) {
                throw unreadable();
            }
            at++;
        }
        int digits = at - start;
        if (digits == 0 || (digits > 1 && bytes[start] == '0')
                || (at < end && (bytes[at] == '.' || bytes[at] == 'e' || bytes[at] == 'E'))) {
            throw unreadable();
        }
        return (int) value;
    }

    /** A JSON string value with its escapes resolved; its UTF-8 must be well-formed. */
    private String string() {
        expect('"');
        int start = at;
        boolean ascii = true;
        while (at < end) {
            byte b = bytes[at];
            if (b == '"') {
                String plain = ascii ? new String(bytes, start, at - start, StandardCharsets.ISO_8859_1)
                        : utf8(start, at);
                at++;
                return plain;
            }
            if (b == '\\') {
                return escaped(start);
            }
            if (b >= 0 && b < 0x20) {
                throw unreadable();
            }
            ascii &= b >= 0;
            at++;
        }
        throw unreadable();
    }

    /** The rest of a string from its first escape on ({@code start} is its first byte). */
    private String escaped(int start) {
        StringBuilder text = new StringBuilder((at - start) + 16);
        text.append(utf8(start, at));
        while (at < end) {
            byte b = bytes[at];
            if (b == '"') {
                at++;
                return text.toString();
            }
            if (b == '\\') {
                at++;
                if (at >= end) {
                    throw unreadable();
                }
                byte e = bytes[at++];
                switch (e) {
                    case '"' -> text.append('"');
                    case '\\' -> text.append('\\');
                    case '/' -> text.append('/');
                    case 'b' -> text.append('\b');
                    case 'f' -> text.append('\f');
                    case 'n' -> text.append('\n');
                    case 'r' -> text.append('\r');
                    case 't' -> text.append('\t');
                    case 'u' -> text.append(hex4());
                    default -> throw unreadable();
                }
                continue;
            }
            if (b >= 0 && b < 0x20) {
                throw unreadable();
            }
            int run = at;
            while (at < end && bytes[at] != '"' && bytes[at] != '\\' && (bytes[at] < 0 || bytes[at] >= 0x20)) {
                at++;
            }
            text.append(utf8(run, at));
        }
        throw unreadable();
    }

    private char hex4() {
        if (at + 4 > end) {
            throw unreadable();
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(bytes[at++], 16);
            if (digit < 0) {
                throw unreadable();
            }
            value = value * 16 + digit;
        }
        return (char) value;
    }

    /** The bytes from {@code from} to {@code to} as text, when they are well-formed UTF-8. */
    private String utf8(int from, int to) {
        int i = from;
        while (i < to) {
            int b = bytes[i] & 0xff;
            int more;
            int min;
            if (b < 0x80) {
                i++;
                continue;
            } else if (b >= 0xc2 && b <= 0xdf) {
                more = 1;
                min = 0x80;
            } else if (b >= 0xe0 && b <= 0xef) {
                more = 2;
                min = 0x800;
            } else if (b >= 0xf0 && b <= 0xf4) {
                more = 3;
                min = 0x10000;
            } else {
                throw unreadable();
            }
            if (i + more >= to) {
                throw unreadable();
            }
            int code = b & (0x3f >> more);
            for (int k = 1; k <= more; k++) {
                int c = bytes[i + k] & 0xff;
                if ((c & 0xc0) != 0x80) {
                    throw unreadable();
                }
                code = (code << 6) | (c & 0x3f);
            }
            if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
                throw unreadable();
            }
            i += more + 1;
        }
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    private boolean is(int from, int to, byte[] expected) {
        if (to - from != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (bytes[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
