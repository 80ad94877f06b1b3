package dev.zerolayer.localstack.testing;

import dev.zerolayer.localstack.ports.NamedPort;
import dev.zerolayer.localstack.ports.PortCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The real launcher in a JVM of its own (classes from the test class path), its stdout and stderr in files. */
public final class LauncherProcess implements AutoCloseable {

    /** Failsafe runs in the module directory; the repository root holds the service modules. */
    public static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private final Process process;
    private final Path out;
    private final Path err;

    private LauncherProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code main} with {@code args}; {@code env} replaces the credentials variables (none: the launcher generates them). */
    public static LauncherProcess start(Path dir, Class<?> main, Map<String, String> env, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path out = dir.resolve("launcher.out");
        Path err = dir.resolve("launcher.err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().remove("ZEROLAYER_API_KEYS");
        builder.environment().remove("ZEROLAYER_ADMIN_TOKEN");
        builder.environment().putAll(env);
        return new LauncherProcess(builder.start(), out, err);
    }

    public Process process() {
        return process;
    }

    public String stdout() {
        return read(out);
    }

    public String stderr() {
        return read(err);
    }

    /** Kills the launcher and every process it started. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL of a stack service on its fixed port ({@code StackServices}), e.g. {@code "node-simulator"}. */
    public static String serviceUrl(String module) {
        return dev.zerolayer.localstack.process.StackServices.defaults(0).stream()
                .filter(spec -> spec.module().equals(module)).findFirst()
                .map(spec -> "http://127.0.0.1:" + spec.port())
                .orElseThrow(() -> new IllegalArgumentException("no stack service " + module));
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A free port whose successor is free too (the broker's controller listens on port + 1). */
    public static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            if (port < 65535 && PortCheck.busy(List.of(new NamedPort(port, "kafka"),
                    new NamedPort(port + 1, "kafka controller"))).isEmpty()) {
                return port;
            }
        }
        throw new IllegalStateException("no two adjacent free ports");
    }
}
