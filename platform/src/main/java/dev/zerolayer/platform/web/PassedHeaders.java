package dev.zerolayer.platform.web;

import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpHeaders;

/**
 * What a replica passes on when it relays a request to a peer, or the peer's answer back: every header but the
 * hop-by-hop ones and the body's length (the relay frames the body again).
 */
public final class PassedHeaders {

    private static final Set<String> NOT_PASSED = Set.of("host", "connection", "keep-alive", "transfer-encoding", "te",
            "upgrade", "proxy-connection", "trailer", "content-length");

    private PassedHeaders() {
    }

    /** Adds to {@code to} every header of {@code from} that is passed on. */
    public static void copy(HttpHeaders from, HttpHeaders to) {
        from.forEach((name, values) -> {
            if (!NOT_PASSED.contains(name.toLowerCase(Locale.ROOT))) {
                to.addAll(name, values);
            }
        });
    }
}
