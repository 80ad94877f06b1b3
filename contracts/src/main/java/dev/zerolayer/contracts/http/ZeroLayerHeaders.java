package dev.zerolayer.contracts.http;

import java.util.List;

/** Request and response header names of the client API (SPEC section 2) and the Kafka record headers ZeroLayer sets. */
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

    /** Kafka header on a dead-lettered record: why it was rejected. */
    public static final String DLQ_REASON = "x-zerolayer-dlq-reason";
    /** Kafka header on a dead-lettered record: the topic it came from. */
    public static final String DLQ_ORIGINAL_TOPIC = "x-zerolayer-dlq-original-topic";
    /** Kafka header on a dead-lettered record: the consumer group that rejected it. */
    public static final String DLQ_CONSUMER_GROUP = "x-zerolayer-dlq-consumer-group";

    private ZeroLayerHeaders() {
    }
}
