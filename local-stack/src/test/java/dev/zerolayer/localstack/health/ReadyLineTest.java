package dev.zerolayer.localstack.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.localstack.process.ServiceSpec;
import dev.zerolayer.localstack.process.StackServices;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyLineTest {

    @Test
    void namesEveryServiceUrlThenTheBroker() {
        assertThat(ReadyLine.of(StackServices.defaults(8080), "127.0.0.1:19092")).isEqualTo(
                "ZEROLAYER READY router=http://127.0.0.1:8080 telemetry=http://127.0.0.1:18081"
                        + " complexity=http://127.0.0.1:18082 cache=http://127.0.0.1:18083"
                        + " fallback=http://127.0.0.1:18084 simulator=http://127.0.0.1:18085"
                        + " console=http://127.0.0.1:18086 kafka=127.0.0.1:19092");
        assertThat(ReadyLine.of(List.of(ServiceSpec.of("telemetry-service", 1234)), "127.0.0.1:5"))
                .isEqualTo("ZEROLAYER READY telemetry=http://127.0.0.1:1234 kafka=127.0.0.1:5");
    }
}
