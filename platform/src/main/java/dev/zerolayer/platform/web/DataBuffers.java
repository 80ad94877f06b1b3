package dev.zerolayer.platform.web;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/** A joined body's bytes, copied out of its buffer, which is released. */
public final class DataBuffers {

    private DataBuffers() {
    }

    /** The readable bytes of {@code buffer}; the buffer is released whatever happens. */
    public static byte[] drain(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
