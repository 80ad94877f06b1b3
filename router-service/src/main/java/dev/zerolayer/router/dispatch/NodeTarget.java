package dev.zerolayer.router.dispatch;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a plain-HTTP call to a node goes: host, port, the Host header and the request target, parsed once per URL;
 * {@code null} for a URL this client does not speak (anything but {@code http://}).
 */
record NodeTarget(String host, int port, String address, String hostHeader, String path) {

    private static final int CACHED = 4_096;
    private static final Map<String, NodeTarget> PARSED = new ConcurrentHashMap<>();
    /** Stands for "not plain HTTP" in the cache. */
    private static final NodeTarget OTHER = new NodeTarget("", 0, "", "", "");

    /**
     * The target of an {@code http://} URL, or null for any other scheme.
     *
     * @throws IllegalArgumentException when the URL is not one
     */
    static NodeTarget of(String url) {
        NodeTarget known = PARSED.get(url);
        if (known == null) {
            NodeTarget parsed = parse(url);
            known = parsed == null ? OTHER : parsed;
            if (PARSED.size() >= CACHED) {
                PARSED.clear();
            }
            PARSED.put(url, known);
        }
        return known == OTHER ? null : known;
    }

    private static NodeTarget parse(String url) {
        URI uri = URI.create(url);
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            return null;
        }
        String host = uri.getHost();
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        return new NodeTarget(bare, port, bare + ":" + port, port == 80 ? host : host + ":" + port, path);
    }
}
