package dev.zerolayer.routing.tokens;

import java.util.Base64;

/**
 * An image's pixel size read from its first bytes (PNG, GIF, WebP and JPEG headers), without decoding the image; a
 * format it does not know, or bytes cut before the size, give {@link #UNKNOWN}.
 */
public record ImageSize(int width, int height) {

    /** The size of an image whose bytes are not at hand (a URL) or not understood. */
    public static final ImageSize UNKNOWN = new ImageSize(0, 0);

    /** Base64 characters decoded at first; a JPEG whose frame header lies further is decoded again, whole. */
    private static final int HEAD_CHARS = 64 * 1024;

    public boolean known() {
        return width > 0 && height > 0;
    }

    /** The size of a base64-encoded image (a {@code data:} URL's payload or a bare base64 string). */
    public static ImageSize ofBase64(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return UNKNOWN;
        }
        String payload = base64;
        if (payload.startsWith("data:")) {
            int comma = payload.indexOf(',');
            if (comma < 0) {
                return UNKNOWN;
            }
            payload = payload.substring(comma + 1);
        }
        ImageSize head = of(decode(payload, HEAD_CHARS));
        if (head.known() || payload.length() <= HEAD_CHARS) {
            return head;
        }
        return of(decode(payload, payload.length()));
    }

    private static byte[] decode(String base64, int chars) {
        int length = Math.min(base64.length(), chars) & ~3;
        try {
            return Base64.getMimeDecoder().decode(base64.substring(0, length));
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    /** The size of an image from its leading bytes. */
    public static ImageSize of(byte[] b) {
        if (b.length >= 24 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') {
            return sized(int32be(b, 16), int32be(b, 20));
        }
        if (b.length >= 10 && b[0] == 'G' && b[1] == 'I' && b[2] == 'F') {
            return sized(int16le(b, 6), int16le(b, 8));
        }
        if (b.length >= 30 && b[0] == 'R' && b[1] == 'I' && b[2] == 'F' && b[3] == 'F' && b[8] == 'W' && b[9] == 'E'
                && b[10] == 'B' && b[11] == 'P') {
            return webp(b);
        }
        if (b.length >= 4 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xD8) {
            return jpeg(b);
        }
        return UNKNOWN;
    }

    private static ImageSize webp(byte[] b) {
        String chunk = new String(b, 12, 4, java.nio.charset.StandardCharsets.US_ASCII);
        return switch (chunk) {
            case "VP8 " -> sized(int16le(b, 26) & 0x3FFF, int16le(b, 28) & 0x3FFF);
            case "VP8L" -> {
                int bits = (b[21] & 0xff) | (b[22] & 0xff) << 8 | (b[23] & 0xff) << 16 | (b[24] & 0xff) << 24;
                yield sized((bits & 0x3FFF) + 1, ((bits >>> 14) & 0x3FFF) + 1);
            }
            case "VP8X" -> sized(int24le(b, 24) + 1, int24le(b, 27) + 1);
            default -> UNKNOWN;
        };
    }

    /** Walks the JPEG markers to the first start-of-frame (SOF0..SOF15 but DHT, JPG and DAC). */
    private static ImageSize jpeg(byte[] b) {
        int at = 2;
        while (at + 9 < b.length) {
            if ((b[at] & 0xff) != 0xFF) {
                return UNKNOWN;
            }
            int marker = b[at + 1] & 0xff;
            if (marker == 0xFF) {
                at++;
                continue;
            }
            if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
                at += 2;
                continue;
            }
            int length = int16be(b, at + 2);
            if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
                return sized(int16be(b, at + 7), int16be(b, at + 5));
            }
            if (length < 2) {
                return UNKNOWN;
            }
            at += 2 + length;
        }
        return UNKNOWN;
    }

    private static ImageSize sized(long width, long height) {
        return width > 0 && height > 0 && width <= 1 << 20 && height <= 1 << 20
                ? new ImageSize((int) width, (int) height) : UNKNOWN;
    }

    private static long int32be(byte[] b, int at) {
        return (b[at] & 0xffL) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }

    private static int int16be(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }

    private static int int16le(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    private static int int24le(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16;
    }
}
