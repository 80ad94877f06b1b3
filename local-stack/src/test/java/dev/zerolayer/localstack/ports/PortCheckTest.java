package dev.zerolayer.localstack.ports;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortCheckTest {

    @Test
    void reportsAPortHeldOnAllInterfacesByName() throws Exception {
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress(0));
            NamedPort wanted = new NamedPort(held.getLocalPort(), "complexity-service");

            List<NamedPort> busy = PortCheck.busy(List.of(wanted));

            assertThat(busy).containsExactly(wanted);
            assertThat(busy.get(0).inUseMessage())
                    .isEqualTo("port " + held.getLocalPort() + " is already in use (complexity-service)");
        }
    }

    @Test
    void reportsAPortHeldOnLoopbackOnly() throws Exception {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NamedPort wanted = new NamedPort(held.getLocalPort(), "kafka");

            assertThat(PortCheck.busy(List.of(wanted))).containsExactly(wanted);
        }
    }

    @Test
    void reportsOnlyTheBusyOnesInOrder() throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0)) {
            free = probe.getLocalPort();
        }
        try (ServerSocket held = new ServerSocket(0)) {
            NamedPort router = new NamedPort(held.getLocalPort(), "router-service");

            assertThat(PortCheck.busy(List.of(new NamedPort(free, "cache-service"), router))).containsExactly(router);
        }
    }

    @Test
    void namesTwoOwnersOfOnePort() {
        assertThat(PortCheck.clashes(List.of(new NamedPort(18081, "router-service"),
                new NamedPort(18081, "telemetry-service"), new NamedPort(19092, "kafka"))))
                .containsExactly("port 18081 is wanted by both router-service and telemetry-service");
    }
}
