package dev.zerolayer.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.MessageBuilder;

class RawBytesConverterTest {

    private final RawBytesConverter converter = new RawBytesConverter();

    @Test
    void aByteArrayConsumerGetsTheRecordsOwnBytesDespiteAJsonContentType() {
        byte[] event = "{\"nodeId\":\"n1\",\"state\":\"HEALTHY\"}".getBytes(StandardCharsets.UTF_8);
        Message<byte[]> record = MessageBuilder.withPayload(event).setHeader("contentType", "application/json").build();

        assertThat(converter.fromMessage(record, byte[].class)).isSameAs(event);
    }

    @Test
    void declinesEveryOtherTargetAndPayloadSoOtherConvertersDecide() {
        Message<byte[]> record = MessageBuilder.withPayload("{}".getBytes(StandardCharsets.UTF_8)).build();

        assertThat(converter.fromMessage(record, String.class)).isNull();
        assertThat(converter.fromMessage(record, Map.class)).isNull();
        assertThat(converter.fromMessage(MessageBuilder.withPayload("{}").build(), byte[].class)).isNull();
        assertThat(converter.toMessage(new byte[] {1}, new MessageHeaders(Map.of()))).isNull();
    }
}
