package dev.zerolayer.localstack.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Owns the children: once stopping has begun no child starts any more, and stopping sends SIGTERM to all, waits at
 * most the grace period in total, then kills what is left.
 */
public final class ChildSupervisor {

    private final Path root;
    private final Path logsDir;
    private final Map<String, String> environment;
    private final long parentPid;
    private final List<ServiceProcess> children = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private boolean stopping;

    public ChildSupervisor(Path root, Path logsDir, Map<String, String> environment, long parentPid) {
        this.root = root;
        this.logsDir = logsDir;
        this.environment = Map.copyOf(environment);
        this.parentPid = parentPid;
    }

    /** Starts one child, its output going to {@code <logs>/<module>[-k].log} (truncated). */
    public synchronized ServiceProcess start(ServiceSpec spec) {
        return start(spec, ServiceCommand.of(spec, root, parentPid));
    }

    /** Starts a child that is no service jar (the balancer) under the same supervision. */
    public synchronized ServiceProcess start(ServiceSpec spec, List<String> command) {
        if (stopping) {
            throw new IllegalStateException("the stack is stopping; not starting " + spec.module());
        }
        try {
            Files.createDirectories(logsDir);
            Path log = logsDir.resolve(spec.logName() + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            ServiceProcess child = new ServiceProcess(spec, builder.start(), log);
            child.process().getOutputStream().close();
            children.add(child);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + spec.module(), e);
        }
    }

    public synchronized List<ServiceProcess> children() {
        return List.copyOf(children);
    }

    public synchronized boolean stopping() {
        return stopping;
    }

    /**
     * True once stopping has begun, waiting up to {@code wait} for it: a child that ends on the terminal's Ctrl-C (it
     * shares the process group) usually does so just before the launcher's own shutdown hook starts.
     */
    public boolean awaitStopping(Duration wait) {
        try {
            return stopped.await(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return stopping();
        }
    }

    /** SIGTERM to every child, up to {@code grace} in total for them to exit, then SIGKILL; returns the killed ones. */
    public List<String> stopAll(Duration grace) {
        List<ServiceProcess> running;
        synchronized (this) {
            stopping = true;
            running = List.copyOf(children);
        }
        stopped.countDown();
        running.forEach(child -> child.process().destroy());
        long deadline = System.nanoTime() + grace.toNanos();
        for (ServiceProcess child : running) {
            awaitExit(child.process(), deadline - System.nanoTime());
        }
        List<String> killed = new ArrayList<>();
        for (ServiceProcess child : running) {
            if (child.alive()) {
                killed.add(child.name());
                child.process().destroyForcibly();
            }
        }
        long killDeadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        running.forEach(child -> awaitExit(child.process(), killDeadline - System.nanoTime()));
        return killed;
    }

    private static void awaitExit(Process process, long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            process.waitFor(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
