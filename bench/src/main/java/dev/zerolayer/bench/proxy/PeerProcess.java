package dev.zerolayer.bench.proxy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A peer proxy run as this benchmark's own child process: output to a log file, stopped (with its descendants) on
 * {@link #close()} and, whatever happens, by one JVM shutdown hook (failure, Ctrl-C); every failure names the peer.
 */
public final class PeerProcess implements AutoCloseable {

    private static final Set<PeerProcess> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(PeerProcess::stop), "peer-reaper"));
    }

    private final String peer;
    private final Process process;
    private final Path log;

    private PeerProcess(String peer, Process process, Path log) {
        this.peer = peer;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} for {@code peer} with extra environment; its output goes to {@code log}. */
    public static PeerProcess start(String peer, List<String> command, Map<String, String> env, Path workDir, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new PeerException(peer, "cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        PeerProcess started = new PeerProcess(peer, process, log);
        RUNNING.add(started);
        return started;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Polls {@code url} (GET) until it answers 2xx; fails naming the peer when it exits or does not answer in time. */
    public void awaitHttp(String url, Duration limit) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new PeerException(peer, "exited with " + process.exitValue() + " before answering " + url
                        + "; last output:\n" + tail());
            }
            try {
                int status = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET()
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status / 100 == 2) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100); // polling a starting process
        }
        throw new PeerException(peer, "did not answer " + url + " within " + limit + "; last output:\n" + tail());
    }

    /** The last lines of the peer's output, for error messages. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Kills the process outright (SIGKILL: no shutdown hook, no goodbye to the broker) and waits for it to go. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
        RUNNING.remove(this);
    }

    @Override
    public void close() {
        stop();
        RUNNING.remove(this);
    }

    private void stop() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                children.forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Runs a setup command (an install) to completion; fails naming the peer with the command's output. */
    public static String runSetup(String peer, List<String> command, Path workDir, Duration limit)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("zerolayer-peer-setup", ".log");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
        } catch (IOException e) {
            throw new PeerException(peer, "cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new PeerException(peer, String.join(" ", command) + " did not finish within " + limit);
        }
        String output = Files.readString(out);
        Files.deleteIfExists(out);
        if (process.exitValue() != 0) {
            throw new PeerException(peer, String.join(" ", command) + " failed with exit " + process.exitValue()
                    + ":\n" + output.substring(Math.max(0, output.length() - 2000)));
        }
        return output;
    }

    /** True when a TCP socket listening on {@code port} exists and every one is bound to 127.0.0.1 (Linux /proc). */
    public static boolean listensOnLoopbackOnly(int port) throws IOException {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        boolean any = false;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 4 || !f[1].endsWith(hexPort) || !f[3].equals("0A")) {
                    continue;
                }
                any = true;
                String address = f[1].substring(0, f[1].indexOf(':'));
                boolean loopback = address.equals("0100007F")
                        || address.equals("00000000000000000000000001000000")
                        || address.equals("0000000000000000FFFF00000100007F");
                if (!loopback) {
                    return false;
                }
            }
        }
        return any;
    }

    /** A peer that could not be installed, started or verified, with its name first in the message. */
    public static final class PeerException extends IllegalStateException {
        public PeerException(String peer, String message) {
            super("peer " + peer + ": " + message);
        }

        public PeerException(String peer, String message, Throwable cause) {
            super("peer " + peer + ": " + message, cause);
        }
    }
}
