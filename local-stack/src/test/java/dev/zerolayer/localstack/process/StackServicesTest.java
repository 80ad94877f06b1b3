package dev.zerolayer.localstack.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.localstack.cli.UsageException;
import java.util.List;
import java.util.Set;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StackServicesTest {

    @Test
    void theFullStackIsSevenServicesWithTheRouterOnTheChosenPort() {
        assertThat(StackServices.defaults(9090)).containsExactly(
                new ServiceSpec("router-service", "router", 9090),
                new ServiceSpec("telemetry-service", "telemetry", 18081),
                new ServiceSpec("complexity-service", "complexity", 18082),
                new ServiceSpec("cache-service", "cache", 18083),
                new ServiceSpec("fallback-service", "fallback", 18084),
                new ServiceSpec("node-simulator", "simulator", 18085),
                new ServiceSpec("console-service", "console", 18086, List.of("--zerolayer.console.local=true")));
    }

    @Test
    void aServiceRunsItsRepackagedJarWithASmallHeapItsPortAndTheParentPid() {
        ServiceSpec spec = ServiceSpec.of("cache-service", 18083);

        assertThat(spec.jar(Path.of("/repo"))).isEqualTo(Path.of("/repo/cache-service/target/cache-service.jar"));
        assertThat(ServiceCommand.of(spec, Path.of("/repo"), 4242, null)).containsExactly(
                ServiceCommand.javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar",
                "/repo/cache-service/target/cache-service.jar", "--server.port=18083", "--zerolayer.parent-pid=4242");
        assertThat(ServiceCommand.of(spec, Path.of("/repo"), 4242, " -Xmx1g  -XX:+UseParallelGC ")).containsExactly(
                ServiceCommand.javaBinary(), "-Xmx1g", "-XX:+UseParallelGC", "-jar",
                "/repo/cache-service/target/cache-service.jar", "--server.port=18083", "--zerolayer.parent-pid=4242");
        assertThat(ServiceCommand.of(spec.withArgs("--x=1"), Path.of("/repo"), 4242, "-Xmx1g"))
                .endsWith("--zerolayer.parent-pid=4242", "--x=1");
    }

    @Test
    void skippedServicesAreLeftOutAndOnlyKnownOnesMayBeSkipped() {
        assertThat(StackServices.without(8080, Set.of("router-service", "node-simulator")))
                .extracting(ServiceSpec::module)
                .containsExactly("telemetry-service", "complexity-service", "cache-service", "fallback-service",
                        "console-service");
        assertThatThrownBy(() -> StackServices.without(8080, Set.of("router")))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--skip: no such service [router]");
    }
}
