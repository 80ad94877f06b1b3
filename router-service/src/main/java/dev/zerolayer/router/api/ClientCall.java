package dev.zerolayer.router.api;

import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * One client request as the server took it: the request, the response it is answered on, and its request target's
 * raw path and raw query (null when it has none).
 */
public record ClientCall(HttpServerRequest http, HttpServerResponse response, String path, String query) {

    /** The call, its path and query read from the request target (origin-form, or absolute-form). */
    public static ClientCall of(HttpServerRequest http, HttpServerResponse response) {
        String uri = http.uri();
        int start = pathStart(uri);
        int question = uri.indexOf('?', start);
        return new ClientCall(http, response, path(uri, start, question),
                question < 0 ? null : uri.substring(question + 1));
    }

    /** The raw query of a request target, or null when it has none (an empty one is ""). */
    public static String query(String uri) {
        int question = uri.indexOf('?', pathStart(uri));
        return question < 0 ? null : uri.substring(question + 1);
    }

    /** The raw path of a request target. */
    public static String path(String uri) {
        int start = pathStart(uri);
        return path(uri, start, uri.indexOf('?', start));
    }

    private static String path(String uri, int start, int question) {
        int end = question < 0 ? uri.length() : question;
        return start >= end ? "/" : uri.substring(start, end);
    }

    /** Where the path begins: at once in origin-form, after the authority in absolute-form. */
    private static int pathStart(String uri) {
        if (uri.startsWith("/")) {
            return 0;
        }
        int scheme = uri.indexOf("://");
        if (scheme < 0) {
            return 0;
        }
        int slash = uri.indexOf('/', scheme + 3);
        return slash < 0 ? uri.length() : slash;
    }
}
