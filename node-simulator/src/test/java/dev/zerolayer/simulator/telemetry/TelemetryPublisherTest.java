package dev.zerolayer.simulator.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeTelemetry;
import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.support.TestNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A node registers before its first sample, re-registers on schedule, and its samples follow its simulated load:
 * KV blocks fill the framebuffer, running requests raise SM activity.
 */
class TelemetryPublisherTest {

    @Test
    void registersFirstThenSamplesAndReRegistersOnSchedule() {
        try (TestNode node = TestNode.builder().id("haiku-l4-2").protocol(UpstreamProtocol.OPENAI).start()) {
            List<NodeTelemetry> sent = new CopyOnWriteArrayList<>();
            AtomicBoolean brokerUp = new AtomicBoolean(false);
            TelemetryPublisher publisher = new TelemetryPublisher(() -> List.of(node.node()), event -> {
                if (!brokerUp.get()) {
                    return false;
                }
                sent.add(event);
                return true;
            }, Duration.ofMillis(50), Duration.ofMillis(300));

            // while nothing can be sent, no sample goes out ahead of the registration
            publisher.tick();
            assertThat(sent).isEmpty();

            brokerUp.set(true);
            publisher.start();
            try {
                await().atMost(Duration.ofSeconds(5)).until(() -> sent.stream()
                        .filter(NodeRegistration.class::isInstance).count() >= 2);
            } finally {
                publisher.stop();
            }

            assertThat(sent.get(0)).isInstanceOfSatisfying(NodeRegistration.class, registration -> {
                assertThat(registration.nodeId()).isEqualTo("haiku-l4-2");
                assertThat(registration.tier()).isEqualTo("haiku");
                assertThat(registration.cluster()).isEqualTo("haiku-l4");
                assertThat(registration.upstreamBaseUrl()).isEqualTo("http://127.0.0.1:" + node.node().port());
                assertThat(registration.protocol()).isEqualTo(UpstreamProtocol.OPENAI);
                assertThat(registration.model()).isEqualTo("meta-llama/Meta-Llama-3-8B-Instruct");
                assertThat(registration.capacity()).isEqualTo(16);
                assertThat(registration.hardwareProfile()).isEqualTo("L4x2");
            });
            assertThat(sent.get(1)).isInstanceOf(TelemetrySample.class);
            assertThat(sent.stream().filter(TelemetrySample.class::isInstance).count()).isGreaterThan(4);
            // what goes on the wire decodes as the topic's event type, with its type tag
            NodeTelemetry decoded = EventCodec.decode(EventCodec.encode(sent.get(0)), NodeTelemetry.class);
            assertThat(decoded).isInstanceOf(NodeRegistration.class);
            assertThat(EventCodec.encodeToString(sent.get(1))).contains("\"type\":\"sample\"");
        }
    }

    @Test
    void samplesFollowTheSimulatedLoad() {
        try (TestNode node = TestNode.builder().profile(HardwareProfiles.A100_40G_X4).capacity(2).latency(true)
                .start()) {
            TelemetrySample idle = TelemetryPublisher.sample(node.node(), node.node().snapshot());
            assertThat(idle.framebufferUsedMiB()).isGreaterThan(HardwareProfiles.A100_40G_X4.weightsMiB());
            assertThat(idle.framebufferUsedMiB() + idle.framebufferFreeMiB())
                    .isEqualTo(HardwareProfiles.A100_40G_X4.totalMemoryMiB());

            // a long prompt stores KV blocks; a running request raises SM activity
            node.post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "fill the cache ".repeat(300) + "\"}]}");
            TelemetrySample filled = TelemetryPublisher.sample(node.node(), node.node().snapshot());
            assertThat(filled.kvCacheUsage()).isGreaterThan(idle.kvCacheUsage());
            assertThat(filled.framebufferUsedMiB()).isGreaterThan(idle.framebufferUsedMiB());

            Thread client = new Thread(() -> node.post("/v1/messages",
                    "{\"model\":\"m\",\"max_tokens\":40,\"messages\":[{\"role\":\"user\",\"content\":\"slow\"}]}"));
            client.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> node.node().snapshot().running() == 1);
            TelemetrySample busy = TelemetryPublisher.sample(node.node(), node.node().snapshot());
            assertThat(busy.requestsRunning()).isEqualTo(1);
            assertThat(busy.smActive()).isGreaterThan(idle.smActive() + 0.3);
            await().atMost(Duration.ofSeconds(10)).until(() -> !client.isAlive());
        }
    }
}
