package dev.zerolayer.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zerolayer.localstack.health.HealthProbe;
import dev.zerolayer.localstack.ports.NamedPort;
import dev.zerolayer.localstack.ports.PortCheck;
import dev.zerolayer.localstack.testing.LauncherProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real launcher in a JVM of its own (its classes from the test class path), on free ports and a temporary data
 * directory so it never collides with a running stack.
 */
class LocalStackIT {

    private static final Path ROOT = LauncherProcess.ROOT;

    @TempDir
    Path tmp;

    @Test
    void startsTelemetryPrintsReadyAndLeavesNothingBehindOnSigterm() throws Exception {
        Path jar = ROOT.resolve("telemetry-service/target/telemetry-service.jar");
        assumeTrue(Files.isRegularFile(jar), () -> "missing " + jar
                + "; build it first: ./mvnw -B -o -q install -pl telemetry-service -DskipTests");
        // Given a stack of telemetry-service alone, on free ports
        int telemetryPort = LauncherProcess.freePort();
        int kafkaPort = LauncherProcess.freePortPair();
        Path dataDir = tmp.resolve("data");
        Process launcher = launch(SmallStack.class, "--service", "telemetry-service=" + telemetryPort,
                "--root", ROOT.toString(), "--data-dir", dataDir.toString(), "--kafka-port", Integer.toString(kafkaPort));
        List<ProcessHandle> family = new ArrayList<>();
        try {
            // When it starts, then it prints exactly one READY line naming the service and the broker
            await().atMost(Duration.ofSeconds(200)).pollInterval(Duration.ofMillis(250))
                    .until(() -> read("out").contains("ZEROLAYER READY") || !launcher.isAlive());
            assertThat(launcher.isAlive()).as("launcher died; stderr:%n%s", read("err")).isTrue();
            assertThat(read("out").lines().toList()).containsExactly(
                    "ZEROLAYER READY telemetry=http://127.0.0.1:" + telemetryPort + " kafka=127.0.0.1:" + kafkaPort);
            assertThat(read("err")).contains("generated ZEROLAYER_API_KEYS=zl-", "generated ZEROLAYER_ADMIN_TOKEN=zla-")
                    .containsPattern("ready in [0-9.]+ s");

            // and the service says UP, logging to the data directory, told the launcher's pid
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + telemetryPort + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(HealthProbe.overallStatus(health.body())).as(health.body()).isEqualTo("UP");
            assertThat(dataDir.resolve("logs/telemetry-service.log")).isNotEmptyFile();
            assertThat(dataDir.resolve("kafka/log/meta.properties")).exists();
            launcher.descendants().forEach(family::add);
            assertThat(family).hasSize(1);
            family.get(0).info().arguments().ifPresent(arguments -> assertThat(arguments)
                    .contains("--server.port=" + telemetryPort, "--zerolayer.parent-pid=" + launcher.pid()));

            // When it gets SIGTERM, then the launcher and its child are gone within 10 s
            long stopStart = System.nanoTime();
            launcher.destroy();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> !launcher.isAlive() && family.stream().noneMatch(ProcessHandle::isAlive));
            System.out.printf("stack stopped in %.1f s%n", (System.nanoTime() - stopStart) / 1e9);
            assertThat(read("err")).contains("stopped in");
            assertThat(PortCheck.busy(List.of(new NamedPort(telemetryPort, "telemetry-service"),
                    new NamedPort(kafkaPort, "kafka")))).isEmpty();
        } finally {
            family.forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
            System.out.println("launcher stderr:\n" + read("err"));
        }
    }

    @Test
    void aRouterPortInUseFailsFastNamingItWithoutStartingTheBroker() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            // Given the router's port is taken
            int port = taken.getLocalPort();
            Path dataDir = tmp.resolve("data");

            // When the full stack is asked to use it
            long start = System.nanoTime();
            Process launcher = launch(LocalStack.class, "--port", Integer.toString(port), "--root", ROOT.toString(),
                    "--data-dir", dataDir.toString(), "--kafka-port", Integer.toString(LauncherProcess.freePortPair()));
            try {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                        .until(() -> !launcher.isAlive());

                // Then it exits 2 quickly, naming the port, with nothing started
                System.out.printf("refused in %.1f s%n", (System.nanoTime() - start) / 1e9);
                assertThat(launcher.exitValue()).isEqualTo(2);
                assertThat(read("err")).contains("port " + port + " is already in use (router-service)")
                        .doesNotContain("starting Kafka");
                assertThat(read("out")).isEmpty();
                assertThat(dataDir).doesNotExist();
            } finally {
                launcher.destroyForcibly();
            }
        }
    }

    private Process launch(Class<?> main, String... args) throws IOException {
        return LauncherProcess.start(tmp, main, Map.of(), args).process();
    }

    private String read(String stream) {
        try {
            Path file = tmp.resolve("launcher." + stream);
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
