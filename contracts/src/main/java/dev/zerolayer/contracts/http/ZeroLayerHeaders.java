package dev.zerolayer.contracts.http;

import java.util.List;

/**
 * Request and response header names of the client API (SPEC section 2). Dead-lettered records carry the Kafka binder's
 * own {@code x-exception-message} (the reason) and {@code x-original-topic}/{@code -partition}/{@code -offset} headers.
 */
public final class ZeroLayerHeaders {

    /** Pins the tier: {@code haiku|sonnet|opus}, exact and lowercase. */
    public static final String ROUTING_PRIORITY = "anthropic-routing-priority";
    /** {@code route} adds {@link #ROUTE} to the response. */
    public static final String DEBUG = "anthropic-debug";
    public static final String DEBUG_ROUTE_VALUE = "route";
    /** {@code true} adds the {@code debug} object to the response body or {@code message_start.message}. */
    public static final String TRACE = "anthropic-trace";
    public static final String SESSION_ID = "x-session-id";
    public static final String API_KEY = "x-api-key";
    public static final String AUTHORIZATION = "Authorization";
    public static final String ADMIN_TOKEN = "x-admin-token";
    public static final String TRACEPARENT = "traceparent";

    public static final String TRACE_ID = "X-Anthropic-Trace-ID";
    public static final String ROUTE = "X-Anthropic-Route";
    public static final String FALLBACK_REASON = "X-Anthropic-Fallback-Reason";

    public static final List<String> PRIORITY_VALUES = List.of("haiku", "sonnet", "opus");

    private ZeroLayerHeaders() {
    }
}
