package dev.zerolayer.simulator.fleet;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.routing.tokens.ServedModel;
import java.io.IOException;
import dev.zerolayer.simulator.kv.KvEventSink;
import dev.zerolayer.simulator.latency.HardwareProfile;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.latency.OutputLength;
import dev.zerolayer.simulator.node.MetricsPage;
import dev.zerolayer.simulator.node.NodeSettings;
import dev.zerolayer.simulator.node.NodeSpec;
import dev.zerolayer.simulator.node.PromptTokenizer;
import dev.zerolayer.simulator.node.SimulatedNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

/**
 * The simulated fleet built from {@link FleetProperties}: one node per configured slot, each on its own port, sharing
 * one event-loop group, one timer scheduler and one tokenizer; started and stopped with the application, and the
 * target of prewarm commands by node id.
 */
public class Fleet implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Fleet.class);

    private final Map<String, SimulatedNode> nodes;
    private final LoopResources loops;
    private final Scheduler timers;
    private volatile boolean running;

    public Fleet(FleetProperties properties, KvEventSink kvEvents, MetricsPage metricsPage, Clock clock) {
        this.loops = LoopResources.create("sim-node", Math.max(1, Runtime.getRuntime().availableProcessors()), true);
        this.timers = Schedulers.newParallel("sim-timers", 2, true);
        NodeSettings settings = new NodeSettings(properties.blockSize(), properties.hashSeed(),
                properties.maxBodySize().toBytes(), properties.maxWaiting(),
                new OutputLength(properties.outputMedianTokens(), properties.outputSigma()),
                properties.defaultMaxTokens());
        PromptTokenizer tokenizer = PromptTokenizer.shared();
        Map<String, SimulatedNode> built = new LinkedHashMap<>();
        Map<String, ServedModel> served = new LinkedHashMap<>();
        for (NodeSpec spec : specs(properties)) {
            if (built.containsKey(spec.id())) {
                throw new IllegalArgumentException("duplicate node id " + spec.id());
            }
            ServedModel model = spec.prefixCache() == null ? null
                    : served.computeIfAbsent(spec.prefixCache().tokenizer(), Fleet::served);
            built.put(spec.id(), new SimulatedNode(spec, settings, tokenizer, model, kvEvents, metricsPage, loops,
                    timers, clock));
        }
        this.nodes = built;
    }

    /** The node specs a configuration describes, in order (ports, seeds, protocols and latency resolved). */
    public static List<NodeSpec> specs(FleetProperties properties) {
        List<NodeSpec> specs = new ArrayList<>();
        String advertised = !properties.advertisedHost().isBlank() ? properties.advertisedHost()
                : "0.0.0.0".equals(properties.bindAddress()) ? "127.0.0.1" : properties.bindAddress();
        int nextPort = properties.basePort();
        for (FleetProperties.Cluster cluster : properties.clusters()) {
            HardwareProfile profile = HardwareProfiles.named(cluster.profile())
                    .withLimits(cluster.capacity(), cluster.kvBlocks());
            long clusterSeed = cluster.seed() != null ? cluster.seed() : properties.seed();
            for (int i = 0; i < cluster.nodes(); i++) {
                String id = cluster.name() + "-" + i;
                int port;
                if (cluster.basePort() > 0) {
                    port = cluster.basePort() + i;
                } else if (properties.basePort() > 0) {
                    port = nextPort++;
                } else {
                    port = 0;
                }
                boolean latency = properties.latencyOverrides().getOrDefault(id,
                        cluster.latency() != null ? cluster.latency() : properties.latency());
                String protocol = i < cluster.protocols().size() ? cluster.protocols().get(i) : cluster.protocol();
                specs.add(new NodeSpec(id, cluster.tier(), cluster.name(), blankToNull(cluster.standbyOf()),
                        protocol(protocol, id), cluster.model() == null || cluster.model().isBlank() ? profile.model()
                                : cluster.model(), profile, new SplittableRandom(clusterSeed ^ id.hashCode())
                                .nextLong(), latency, properties.bindAddress(), advertised, port,
                        blankToNull(cluster.tokenizer()) == null || protocol(protocol, id) != UpstreamProtocol.OPENAI
                                ? null : new PrefixCaching(cluster.tokenizer().trim(),
                                properties.blockSize(), PrefixCaching.VLLM_SHA256_CBOR, cluster.prefixHashSeed()),
                        cluster.declarePrefixCache()));
            }
        }
        return specs;
    }

    /** A served model's tokenizer and chat template, loaded once per location for the nodes that play vLLM. */
    private static ServedModel served(String location) {
        try {
            ServedModel model = ServedModel.load(location);
            if (model.templateProblem() != null) {
                log.warn("tokenizer {}: {}", location, model.templateProblem());
            }
            return model;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("tokenizer " + location + " cannot be loaded: " + e.getMessage(), e);
        }
    }

    private static UpstreamProtocol protocol(String name, String node) {
        try {
            return UpstreamProtocol.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("node " + node + ": protocol must be anthropic or openai, was '" + name
                    + "'");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    public List<SimulatedNode> nodes() {
        return List.copyOf(nodes.values());
    }

    public Optional<SimulatedNode> node(String id) {
        return Optional.ofNullable(nodes.get(id));
    }

    /** Applies a prewarm command to its node (commands for nodes not in this fleet are ignored). */
    public void prewarm(PrewarmCommand command) {
        node(command.nodeId()).ifPresent(node -> node.prewarm(command.blockHashes()));
    }

    @Override
    public synchronized void start() {
        PromptTokenizer.shared().count("warm the encoding before the first request");
        List<SimulatedNode> started = new ArrayList<>();
        try {
            for (SimulatedNode node : nodes.values()) {
                node.start();
                started.add(node);
            }
        } catch (RuntimeException e) {
            started.forEach(SimulatedNode::stop);
            throw e;
        }
        running = true;
        log.info("simulated fleet up: {} nodes", nodes.size());
    }

    @Override
    public synchronized void stop() {
        nodes.values().forEach(SimulatedNode::stop);
        running = false;
    }

    /** Releases the event loops and timers (after {@link #stop()}). */
    public void close() {
        stop();
        timers.dispose();
        loops.disposeLater().block(java.time.Duration.ofSeconds(5));
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
