package dev.zerolayer.console.fleet;

import dev.zerolayer.contracts.codec.EventCodec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * In local mode, the simulated fleet's active faults by node, read from the simulator's {@code GET /admin/nodes} every
 * {@code interval} (faults are the simulator's own state, on no topic); an unanswered read keeps the last known faults.
 */
public final class SimulatorFaults implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SimulatorFaults.class);

    private final WebClient client;
    private final URI nodes;
    private final Duration interval;
    private final Map<String, List<String>> faults = new ConcurrentHashMap<>();
    private volatile Disposable polling;

    public SimulatorFaults(WebClient.Builder builder, URI simulator, Duration interval) {
        this.client = builder.build();
        this.nodes = simulator.resolve("/admin/nodes");
        this.interval = interval;
    }

    /** The fault types active on a node (none when unknown). */
    public List<String> of(String nodeId) {
        return faults.getOrDefault(nodeId, List.of());
    }

    /** Replaces the known faults with those of a {@code GET /admin/nodes} answer. */
    void read(JsonNode answer) {
        Map<String, List<String>> next = new java.util.HashMap<>();
        for (JsonNode node : answer.path("nodes")) {
            List<String> types = new ArrayList<>();
            node.path("faults").forEach(fault -> types.add(fault.path("type").asString("")));
            next.put(node.path("id").asString(""), List.copyOf(types));
        }
        faults.keySet().retainAll(next.keySet());
        faults.putAll(next);
    }

    @Override
    public void start() {
        polling = Flux.interval(Duration.ZERO, interval)
                .onBackpressureDrop() // a read slower than the interval skips ticks rather than failing the poll
                .concatMap(tick -> client.get().uri(nodes).retrieve().bodyToMono(byte[].class)
                        .timeout(interval)
                        .doOnNext(body -> read(EventCodec.mapper().readTree(body)))
                        .onErrorResume(e -> {
                            log.debug("simulator faults not read: {}", e.toString());
                            return Mono.empty();
                        }))
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = polling;
        if (running != null) {
            running.dispose();
        }
        polling = null;
    }

    @Override
    public boolean isRunning() {
        return polling != null;
    }
}
