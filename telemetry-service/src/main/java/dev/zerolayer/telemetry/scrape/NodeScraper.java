package dev.zerolayer.telemetry.scrape;

import dev.zerolayer.contracts.telemetry.TelemetrySample;
import dev.zerolayer.routing.scrape.PrometheusParseException;
import dev.zerolayer.routing.scrape.PrometheusTextParser;
import dev.zerolayer.routing.scrape.PrometheusTextParser.Scrape;
import dev.zerolayer.routing.scrape.ScrapeMapper;
import dev.zerolayer.routing.scrape.ScrapedSignals;
import dev.zerolayer.telemetry.config.TelemetryProperties.InventoryNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Scrapes one inventory node's dcgm-exporter and vLLM {@code /metrics}, and turns them into a sample: SM activity,
 * NVLink traffic and saturation, framebuffer, queue, KV usage, and a running count of XID errors (each change of the
 * last-XID gauge to a non-zero code counts one).
 */
public class NodeScraper {

    private static final int MAX_BYTES = 4 * 1024 * 1024;

    private final InventoryNode node;
    private final WebClient client;
    private final Duration timeout;
    private final ScrapeMapper mapper;
    private double lastXid;
    private long xidCount;

    public NodeScraper(InventoryNode node, WebClient.Builder builder, Duration timeout) {
        this.node = node;
        this.client = builder.codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_BYTES)).build();
        this.timeout = timeout;
        this.mapper = new ScrapeMapper(node.gpuLabels() == null ? Map.of() : node.gpuLabels(),
                node.engineLabels() == null ? Map.of() : node.engineLabels());
    }

    public String nodeId() {
        return node.nodeId();
    }

    /** Fetches both endpoints; empty when the node could not be reached (staleness then marks it DOWN). */
    public Mono<TelemetrySample> scrape() {
        return Mono.zip(fetch(node.dcgmUrl()), fetch(node.vllmUrl()))
                .map(texts -> toSample(parse(texts.getT1()), parse(texts.getT2())));
    }

    private Mono<Optional<String>> fetch(String url) {
        if (url == null || url.isBlank()) {
            return Mono.just(Optional.empty());
        }
        return client.get().uri(url).retrieve().bodyToMono(String.class).timeout(timeout).map(Optional::of);
    }

    private static Scrape parse(Optional<String> text) {
        return text.map(PrometheusTextParser::parse).orElse(null);
    }

    synchronized TelemetrySample toSample(Scrape dcgm, Scrape vllm) {
        ScrapedSignals signals = mapper.map(dcgm, vllm);
        double xid = signals.lastXidError().orElse(0);
        if (xid != 0 && xid != lastXid) {
            xidCount++;
        }
        lastXid = xid;
        double tx = signals.nvlinkTxBytesPerSecond().orElse(0);
        double rx = signals.nvlinkRxBytesPerSecond().orElse(0);
        double saturation = node.nvlinkCapacityBytesPerSecond() <= 0 ? 0
                : clamp((tx + rx) / node.nvlinkCapacityBytesPerSecond());
        return TelemetrySample.now(node.nodeId(), clamp(signals.smActive().orElse(0)), tx, rx, saturation,
                Math.round(signals.framebufferUsedMiB().orElse(0)), Math.round(signals.framebufferFreeMiB().orElse(0)),
                0.0, (int) signals.requestsRunning().orElse(0), (int) signals.requestsWaiting().orElse(0),
                clamp(signals.kvCacheUsage().orElse(0)), false, xidCount);
    }

    private static double clamp(double value) {
        return Double.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0;
    }

    /** Whether a failure was malformed text (as opposed to an unreachable endpoint). */
    public static boolean malformed(Throwable error) {
        return error instanceof PrometheusParseException;
    }
}
