package dev.zerolayer.routing.prefix;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Canonical CBOR (RFC 8949 §4.2.1: shortest-form heads, definite lengths) for the few types block hashing needs: null,
 * unsigned and negative integers, byte strings, text strings and arrays.
 */
final class CanonicalCbor {

    private static final int UNSIGNED = 0;
    private static final int NEGATIVE = 1;
    private static final int BYTES = 2;
    private static final int TEXT = 3;
    private static final int ARRAY = 4;
    private static final int NULL = 0xf6;

    private final ByteArrayOutputStream out;

    CanonicalCbor(int expectedSize) {
        out = new ByteArrayOutputStream(expectedSize);
    }

    CanonicalCbor writeNull() {
        out.write(NULL);
        return this;
    }

    CanonicalCbor writeInt(long value) {
        if (value >= 0) {
            head(UNSIGNED, value);
        } else {
            head(NEGATIVE, -1 - value);
        }
        return this;
    }

    CanonicalCbor writeBytes(byte[] bytes) {
        head(BYTES, bytes.length);
        out.write(bytes, 0, bytes.length);
        return this;
    }

    CanonicalCbor writeText(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        head(TEXT, utf8.length);
        out.write(utf8, 0, utf8.length);
        return this;
    }

    CanonicalCbor startArray(int size) {
        head(ARRAY, size);
        return this;
    }

    CanonicalCbor writeTextArrayOrNull(List<String> texts) {
        if (texts == null) {
            return writeNull();
        }
        startArray(texts.size());
        texts.forEach(this::writeText);
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    /** A major type with its argument in the shortest form (the argument is treated as unsigned). */
    private void head(int majorType, long argument) {
        int major = majorType << 5;
        if (argument >= 0 && argument < 24) {
            out.write(major | (int) argument);
        } else if (argument >= 0 && argument < 0x100) {
            out.write(major | 24);
            out.write((int) argument);
        } else if (argument >= 0 && argument < 0x10000) {
            out.write(major | 25);
            writeBigEndian(argument, 2);
        } else if (argument >= 0 && argument < 0x1_0000_0000L) {
            out.write(major | 26);
            writeBigEndian(argument, 4);
        } else {
            out.write(major | 27);
            writeBigEndian(argument, 8);
        }
    }

    private void writeBigEndian(long value, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }
}
