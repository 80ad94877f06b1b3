package dev.zerolayer.localstack.balancer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * HAProxy (the Debian package) in front of the router replicas on the router port, in HTTP mode: each request goes to
 * the replica with the fewest in flight over a connection of its own (never a pooled one, which a replica that just
 * died would leave dead); a request a dead replica refuses or closes without a byte of answer is sent to another, so
 * a request is held until its body is in (up to 256 KB: HAProxy tries again only a request it had whole when it first
 * sent it); a replica whose readiness check fails three times (1 s apart, 3 s each) gets none until it passes again,
 * unless every check fails at once: then every replica is tried unchecked rather than a request refused; a client's
 * keep-alive connection outlives any replica, and an idle one is kept 21 minutes (longer than clients keep theirs: the
 * JDK's HttpClient 20, Node's and Python's seconds), so the client, not the balancer, closes it and a request never
 * races the balancer's close; streams pass through unbuffered; a replica that comes back up gets its share gradually
 * over the slow start, while its JIT finishes what its warm-up began. One thread; its log (standard output, the
 * launcher's {@code haproxy.log}) has the replicas' state changes and each request that ended abnormally or was tried
 * again, with HAProxy's termination state and nothing of the bodies.
 */
public final class RouterBalancer {

    private RouterBalancer() {
    }

    /** The haproxy binary on this machine, if any. */
    public static Optional<Path> binary() {
        for (String candidate : List.of("/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/usr/bin/haproxy")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Optional.of(Path.of(candidate));
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "haproxy");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * The configuration: the router port in front of the replicas' ports; a replica back up after being down ramps
     * from a small share to its full one over {@code slowStart} (HAProxy's {@code slowstart}; zero: at once).
     */
    public static String config(int port, List<Integer> replicas, Duration slowStart) {
        StringBuilder config = new StringBuilder("""
                global
                  nbthread 1
                  log stdout format raw local0 info
                  tune.bufsize 262144
                defaults
                  mode http
                  log global
                  option httplog
                  option dontlog-normal
                  timeout connect 2s
                  timeout client 15m
                  timeout server 15m
                  timeout http-request 30s
                  timeout http-keep-alive 21m
                  retries 3
                  retry-on conn-failure empty-response
                  option redispatch 1
                  option http-buffer-request
                  http-reuse never
                frontend routers
                  bind :%d
                  default_backend router_replicas
                backend router_replicas
                  balance leastconn
                  option httpchk GET /actuator/health/readiness
                  http-check expect status 200
                  timeout check 3s
                  default-server inter 1s fall 3 rise 1%s
                """.formatted(port, slowStart.isZero() ? "" : " slowstart " + slowStart.toMillis() + "ms"));
        for (int i = 0; i < replicas.size(); i++) {
            config.append("  server router-").append(i + 1).append(" 127.0.0.1:").append(replicas.get(i))
                    .append(" check\n");
        }
        // when every check fails at once (a starved machine answers its probes late), the routers are still tried
        // unchecked rather than every request answered 503; a dead one refuses and the request goes to the other
        for (int i = 0; i < replicas.size(); i++) {
            config.append("  server router-").append(i + 1).append("-unchecked 127.0.0.1:").append(replicas.get(i))
                    .append(" backup\n");
        }
        return config.toString();
    }

    /** Writes the configuration under {@code dir} and returns the command running HAProxy on it in the foreground. */
    public static List<String> command(Path binary, Path dir, int port, List<Integer> replicas,
            Duration slowStart) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("haproxy.cfg");
            Files.writeString(file, config(port, replicas, slowStart));
            return List.of(binary.toString(), "-db", "-f", file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the balancer's configuration", e);
        }
    }
}
