package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.platform.web.PassedHeaders;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpHeaders;

/**
 * The client's end-to-end headers as a node gets them: every header but the hop-by-hop ones (and those the
 * {@code Connection} header names), the client's credentials, the gateway's own ({@code anthropic-routing-*}, debug,
 * trace, session, {@code x-zerolayer-*}) and those the gateway sets itself (content type and length, accept,
 * encoding, host); a node of the other API gets none of the client API's own headers ({@code anthropic-*} /
 * {@code openai-*}). Names are matched without regard to case, repeated headers keep every value. An Anthropic node
 * always gets an {@code anthropic-version} (the client's, else {@value #ANTHROPIC_VERSION}).
 */
public final class ForwardedHeaders {

    /** The Messages API version sent when the client named none. */
    public static final String ANTHROPIC_VERSION = "2023-06-01";

    /** Dropped besides the hop-by-hop ones and the body's length ({@link PassedHeaders#notPassed}). */
    private static final Set<String> DROPPED = Set.of("trailers", "content-type", "accept", "accept-encoding",
            "authorization", "x-api-key", "api-key", "cookie", ZeroLayerHeaders.DEBUG, ZeroLayerHeaders.TRACE,
            ZeroLayerHeaders.SESSION_ID, ZeroLayerHeaders.ADMIN_TOKEN, ZeroLayerHeaders.TRACEPARENT, "tracestate",
            "baggage", "x-forwarded-host");
    private static final String ROUTING_PREFIX = "anthropic-routing-";
    /** The gateway's own headers between its replicas (a peer's proof, the replica that passed a request on). */
    private static final String GATEWAY_PREFIX = "x-zerolayer-";

    private final List<Map.Entry<String, String>> headers;

    private ForwardedHeaders(List<Map.Entry<String, String>> headers) {
        this.headers = headers;
    }

    /** The forwardable headers of a client request (computed once per request). */
    public static ForwardedHeaders of(HttpHeaders client) {
        Set<String> named = PassedHeaders.namedByConnection(client);
        List<Map.Entry<String, String>> kept = new ArrayList<>();
        // forEach, not headerSet: the server's headers are unique by name already, and headerSet builds a
        // case-insensitive set of them on every request
        client.forEach((key, values) -> {
            String name = key.toLowerCase(Locale.ROOT);
            if (PassedHeaders.notPassed(name) || DROPPED.contains(name) || named.contains(name)
                    || name.startsWith(ROUTING_PREFIX) || name.startsWith(GATEWAY_PREFIX)) {
                return;
            }
            for (String value : values) {
                kept.add(new AbstractMap.SimpleImmutableEntry<>(name, value));
            }
        });
        return new ForwardedHeaders(List.copyOf(kept));
    }

    /**
     * The headers for a node of {@code node}'s protocol serving a client of {@code client}'s API, then
     * {@code extra} (the gateway's trace context).
     */
    public List<Map.Entry<String, String>> forNode(ClientApi client, UpstreamProtocol node, Map<String, String> extra) {
        boolean same = client.nativeTo(node);
        String foreignPrefix = node == UpstreamProtocol.ANTHROPIC ? "openai-" : "anthropic-";
        List<Map.Entry<String, String>> out = new ArrayList<>(headers.size() + extra.size() + 1);
        boolean version = false;
        for (Map.Entry<String, String> header : headers) {
            String name = header.getKey();
            if (!same && (name.startsWith("anthropic-") || name.startsWith("openai-"))) {
                continue;
            }
            if (name.startsWith(foreignPrefix)) {
                continue;
            }
            version |= name.equals("anthropic-version");
            out.add(header);
        }
        if (node == UpstreamProtocol.ANTHROPIC && !version) {
            out.add(new AbstractMap.SimpleImmutableEntry<>("anthropic-version", ANTHROPIC_VERSION));
        }
        extra.forEach((name, value) -> out.add(new AbstractMap.SimpleImmutableEntry<>(name, value)));
        return out;
    }
}
