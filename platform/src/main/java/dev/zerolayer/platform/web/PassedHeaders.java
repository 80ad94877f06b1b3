package dev.zerolayer.platform.web;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * What a replica passes on when it relays a request to a peer, or the peer's answer back: every header but the
 * hop-by-hop ones and the body's length (the relay frames the body again).
 */
public final class PassedHeaders {

    private static final Set<String> NOT_PASSED = Set.of("host", "connection", "keep-alive", "transfer-encoding", "te",
            "upgrade", "proxy-connection", "proxy-authorization", "proxy-authenticate", "trailer", "expect",
            "content-length");

    private PassedHeaders() {
    }

    /** Adds to {@code to} every header of {@code from} that is passed on (not those its Connection header names). */
    public static void copy(HttpHeaders from, HttpHeaders to) {
        Set<String> named = namedByConnection(from);
        from.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!notPassed(lower) && !named.contains(lower)) {
                to.addAll(name, values);
            }
        });
    }

    /** Whether a header (its lower-case name) is hop-by-hop or the body's length, and so never passed on. */
    public static boolean notPassed(String lowerCaseName) {
        return NOT_PASSED.contains(lowerCaseName);
    }

    /** The lower-case names the {@code Connection} header lists: hop-by-hop for this message only. */
    public static Set<String> namedByConnection(HttpHeaders headers) {
        Set<String> named = new HashSet<>();
        for (String value : headers.getOrEmpty(HttpHeaders.CONNECTION)) {
            for (String token : value.split(",")) {
                named.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        return named;
    }

    /** Whether a relay's failure happened before anything reached the peer (refused, or its host unknown). */
    public static boolean neverSent(Throwable failure) {
        if (!(failure instanceof WebClientRequestException request)) {
            return false;
        }
        Throwable cause = request.getMostSpecificCause();
        return cause instanceof ConnectException || cause instanceof UnknownHostException;
    }
}
