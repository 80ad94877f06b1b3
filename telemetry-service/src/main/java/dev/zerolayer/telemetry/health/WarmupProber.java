package dev.zerolayer.telemetry.health;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Sends a warming node its 1-token probe (a one-word request with {@code max_tokens: 1} in the node's own protocol);
 * a 2xx within the timeout is a good probe, anything else a bad one.
 */
public class WarmupProber {

    private final WebClient client;
    private final Duration timeout;
    private final HealthTracker tracker;

    public WarmupProber(WebClient.Builder builder, Duration timeout, HealthTracker tracker) {
        this.client = builder.build();
        this.timeout = timeout;
        this.tracker = tracker;
    }

    public void probe(NodeRegistration node) {
        boolean anthropic = node.protocol() == UpstreamProtocol.ANTHROPIC;
        String path = anthropic ? "/v1/messages" : "/v1/chat/completions";
        Map<String, Object> body = Map.of("model", node.model(), "max_tokens", 1,
                "messages", List.of(Map.of("role", "user", "content", "ping")));
        WebClient.RequestBodySpec request = client.post().uri(node.upstreamBaseUrl() + path)
                .contentType(MediaType.APPLICATION_JSON);
        if (anthropic) {
            request = request.header("anthropic-version", "2023-06-01");
        }
        request.bodyValue(body).retrieve().toBodilessEntity().timeout(timeout)
                .map(response -> response.getStatusCode().is2xxSuccessful())
                .onErrorReturn(false)
                .subscribe(ok -> tracker.onProbe(node.nodeId(), ok));
    }
}
