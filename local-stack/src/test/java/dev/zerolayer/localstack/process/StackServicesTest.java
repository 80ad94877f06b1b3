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
    void replicasRunTheRoutersOnTheirOwnPortsAndTheReplicatedServicesOnePortHundredApart() {
        List<ServiceSpec> stack = StackServices.replicated(8080, 2, Path.of("/data"));

        assertThat(stack).extracting(ServiceSpec::key, ServiceSpec::port).containsExactly(
                org.assertj.core.groups.Tuple.tuple("router-1", 18090),
                org.assertj.core.groups.Tuple.tuple("router-2", 18091),
                org.assertj.core.groups.Tuple.tuple("telemetry-1", 18081),
                org.assertj.core.groups.Tuple.tuple("telemetry-2", 18181),
                org.assertj.core.groups.Tuple.tuple("complexity-1", 18082),
                org.assertj.core.groups.Tuple.tuple("complexity-2", 18182),
                org.assertj.core.groups.Tuple.tuple("cache-1", 18083),
                org.assertj.core.groups.Tuple.tuple("cache-2", 18183),
                org.assertj.core.groups.Tuple.tuple("fallback-1", 18084),
                org.assertj.core.groups.Tuple.tuple("fallback-2", 18184),
                org.assertj.core.groups.Tuple.tuple("simulator", 18085),
                org.assertj.core.groups.Tuple.tuple("console", 18086));
        ServiceSpec fallback = stack.get(9);
        assertThat(fallback.args()).containsExactly("--zerolayer.replica-id=fallback-service-2",
                "--zerolayer.fallback.data-dir=" + Path.of("/data/fallback-2"));
        assertThat(fallback.logName()).isEqualTo("fallback-service-2");
        assertThat(stack.get(7).logName()).isEqualTo("cache-service-2");
        assertThat(stack.get(10).logName()).isEqualTo("node-simulator");
        assertThat(StackServices.replicated(8080, 1, Path.of("/data"))).isEqualTo(StackServices.defaults(8080));
        assertThat(StackServices.without(8080, Set.of("router-service"), 3, Path.of("/data")))
                .extracting(ServiceSpec::module).doesNotContain("router-service")
                .filteredOn("telemetry-service"::equals).hasSize(3);
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
