package dev.zerolayer.platform.events;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.MessageConverter;

/**
 * A consumer that asks for {@code byte[]} gets the record's bytes as they are, whatever its content type says: our
 * readers decode events themselves ({@link EventReader}), so a JSON content type must not send the bytes through a
 * JSON-to-{@code byte[]} conversion first (which fails on every event object, at the cost of two exceptions per record,
 * before the framework falls back to the bytes). Declines everything else, so other conversions are unchanged.
 */
public final class RawBytesConverter implements MessageConverter {

    @Override
    public Object fromMessage(Message<?> message, Class<?> targetClass) {
        return targetClass == byte[].class && message.getPayload() instanceof byte[] bytes ? bytes : null;
    }

    @Override
    public Message<?> toMessage(Object payload, MessageHeaders headers) {
        return null;
    }
}
