package dev.zerolayer.localstack.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RouterBalancerTest {

    @Test
    void theRouterPortFrontsEveryReplicaCheckedForReadiness() {
        String config = RouterBalancer.config(8080, List.of(18090, 18091), Duration.ofSeconds(60));

        assertThat(config).contains("bind :8080", "mode http", "retry-on conn-failure empty-response",
                "http-reuse never", "balance leastconn", "option redispatch 1", "option httpchk GET /actuator/health/readiness", "server router-1 127.0.0.1:18090 check",
                "server router-2 127.0.0.1:18091 check", "server router-1-unchecked 127.0.0.1:18090 backup",
                "timeout check 3s", "default-server inter 1s fall 3 rise 1 slowstart 60000ms",
                "timeout http-keep-alive 21m", "log stdout format raw", "option httplog", "option dontlog-normal",
                "option http-buffer-request", "tune.bufsize 262144");
        assertThat(RouterBalancer.config(8080, List.of(18090, 18091), Duration.ZERO)).doesNotContain("slowstart");
    }

    @Test
    void haproxyItselfAcceptsTheConfiguration(@TempDir Path dir) throws Exception {
        assumeTrue(RouterBalancer.binary().isPresent(), "HAProxy is not installed here");
        List<String> command = RouterBalancer.command(RouterBalancer.binary().get(), dir, 28080,
                List.of(28090, 28091, 28092), Duration.ofSeconds(60));
        Path file = Path.of(command.get(command.size() - 1));

        Process check = new ProcessBuilder(RouterBalancer.binary().get().toString(), "-c", "-f", file.toString())
                .redirectErrorStream(true).start();
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(check.exitValue()).as(output).isZero();
        assertThat(command).containsSequence("-db", "-f");
    }
}
