package dev.zerolayer.simulator.support;

import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfile;
import dev.zerolayer.simulator.latency.HardwareProfiles;
import dev.zerolayer.simulator.node.NodeSettings;
import dev.zerolayer.simulator.node.NodeSpec;
import dev.zerolayer.simulator.node.PromptTokenizer;
import dev.zerolayer.simulator.node.SimulatedNode;
import dev.zerolayer.simulator.telemetry.PrometheusExposition;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

/** A real simulated node on a free loopback port for tests, with its KV events collected in memory. */
public final class TestNode implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final List<KvCacheEvent> kvEvents = new CopyOnWriteArrayList<>();
    private final LoopResources loops = LoopResources.create("test-node", 2, true);
    private final Scheduler timers = Schedulers.newParallel("test-timers", 2, true);
    private final SimulatedNode node;

    private TestNode(Builder builder) {
        NodeSpec spec = new NodeSpec(builder.id, builder.tier, builder.cluster, null, builder.protocol,
                builder.profile.model(), builder.profile.withLimits(builder.capacity, builder.kvBlocks), builder.seed,
                builder.latency, "127.0.0.1", "127.0.0.1", 0, builder.prefixCache, builder.prefixCache != null);
        node = new SimulatedNode(spec, builder.settings, PromptTokenizer.shared(), builder.servedModel,
                kvEvents::add, new PrometheusExposition(), loops, timers, Clock.systemUTC());
        node.start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A latency-off Anthropic node on the L4 profile. */
    public static TestNode fast() {
        return builder().start();
    }

    public SimulatedNode node() {
        return node;
    }

    public String url(String path) {
        return node.baseUrl() + path;
    }

    public HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30)).GET().build());
    }

    /** Posts and returns the streamed body as it arrives. */
    public HttpResponse<InputStream> postStreaming(String path, String json) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        node.stop();
        timers.dispose();
        loops.dispose();
    }

    /** Options of a test node; defaults: haiku L4x2, Anthropic, latency off, seed 7. */
    public static final class Builder {
        private String id = "test-node";
        private String tier = "haiku";
        private String cluster = "haiku-l4";
        private UpstreamProtocol protocol = UpstreamProtocol.ANTHROPIC;
        private HardwareProfile profile = HardwareProfiles.L4_X2;
        private long seed = 7;
        private boolean latency;
        private int capacity;
        private long kvBlocks;
        private NodeSettings settings = NodeSettings.defaults();
        private PrefixCaching prefixCache;
        private ServedModel servedModel;

        public Builder id(String id) {
            this.id = id;
            return this;
        }

        public Builder protocol(UpstreamProtocol protocol) {
            this.protocol = protocol;
            return this;
        }

        public Builder profile(HardwareProfile profile) {
            this.profile = profile;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder latency(boolean latency) {
            this.latency = latency;
            return this;
        }

        public Builder capacity(int capacity) {
            this.capacity = capacity;
            return this;
        }

        public Builder kvBlocks(long kvBlocks) {
            this.kvBlocks = kvBlocks;
            return this;
        }

        public Builder settings(NodeSettings settings) {
            this.settings = settings;
            return this;
        }

        /** The node plays vLLM serving {@code model}, hashing as {@code caching} says (an OpenAI-protocol node). */
        public Builder vllm(ServedModel model, PrefixCaching caching) {
            this.servedModel = model;
            this.prefixCache = caching;
            this.protocol = UpstreamProtocol.OPENAI;
            return this;
        }

        public TestNode start() {
            return new TestNode(this);
        }
    }
}
