package dev.zerolayer.localstack.health;

import dev.zerolayer.localstack.process.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Polls every child's health until all are UP; fails as soon as one exits, or when the timeout passes.
 */
public final class ReadinessWaiter {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(300);

    private final HealthProbe probe;
    private final Duration timeout;

    public ReadinessWaiter(HealthProbe probe, Duration timeout) {
        this.probe = probe;
        this.timeout = timeout;
    }

    /**
     * Returns once every service is UP.
     *
     * @throws ServiceExitedException when a child exits first
     * @throws IllegalStateException  when some are still not UP after the timeout, naming them
     */
    public void awaitAllUp(List<ServiceProcess> services) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ServiceProcess> pending = new ArrayList<>(services);
        while (true) {
            for (ServiceProcess service : List.copyOf(pending)) {
                if (!service.alive()) {
                    throw new ServiceExitedException(service, "before it was ready");
                }
                if (probe.up(service.spec().url())) {
                    pending.remove(service);
                }
            }
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not UP within " + timeout.toSeconds() + " s: "
                        + pending.stream().map(ServiceProcess::name).toList());
            }
            awaitAnyExit(pending, POLL_INTERVAL);
        }
    }

    /** Waits up to {@code wait} (returning early when one of them exits): the pause between two polls. */
    private static void awaitAnyExit(List<ServiceProcess> services, Duration wait) {
        CompletableFuture<?>[] exits = services.stream().map(s -> s.process().onExit())
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.anyOf(exits).get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException stillRunning) {
            // the next round polls again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the services", e);
        }
    }
}
