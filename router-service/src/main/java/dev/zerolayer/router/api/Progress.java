package dev.zerolayer.router.api;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.leader.LeaderForwarding;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.translate.UpstreamBodies;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.ForwardedHeaders;
import io.micrometer.tracing.Span;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.springframework.http.HttpHeaders;

/**
 * What the gateway knows of one request after each stage (arrived → caller → read → parsed → decided → dispatched);
 * each stage takes one of these and returns the next, never changing one. Holds no prompt text beyond the parsed
 * request, which never reaches the event.
 */
sealed interface Progress permits Progress.Arrival, Progress.Caller, Progress.Read, Progress.Parsed, Progress.Decided,
        Progress.Dispatched {

    /** What a request asks the gateway to do (STORED: read, list the input of, or delete a stored Responses answer). */
    enum Mode { DISPATCH, EXPLAIN, COUNT, STORED }

    /** The record this one extends (null for an arrival): what this one does not add, it reports from there. */
    Progress before();

    default Arrival arrival() {
        return before().arrival();
    }

    default String keyId() {
        return fromBefore(Progress::keyId, "anonymous");
    }

    /** Whether the body was read (a refusal before that closes the connection). */
    default boolean bodyRead() {
        return fromBefore(Progress::bodyRead, false);
    }

    default ClientRequest request() {
        return fromBefore(Progress::request, null);
    }

    default String sessionHash() {
        return fromBefore(Progress::sessionHash, null);
    }

    default Routed routed() {
        return fromBefore(Progress::routed, null);
    }

    default DispatchTrace dispatch() {
        return fromBefore(Progress::dispatch, null);
    }

    default Usage usage() {
        return fromBefore(Progress::usage, Usage.NONE);
    }

    default Refusal refusal() {
        return fromBefore(Progress::refusal, Refusal.NONE);
    }

    private <T> T fromBefore(Function<Progress, T> part, T none) {
        Progress before = before();
        return before == null ? none : part.apply(before);
    }

    /** The node that served, else the decision's first choice. */
    default String node() {
        DispatchTrace dispatch = dispatch();
        if (dispatch != null && dispatch.servedNode() != null) {
            return dispatch.servedNode();
        }
        return routed() == null ? null : routed().decision().node();
    }

    default String tier() {
        NodeRegistration served = dispatch() == null ? null : dispatch().served();
        return served != null ? served.tier() : routed() == null ? null : routed().decision().tier();
    }

    default String cluster() {
        NodeRegistration served = dispatch() == null ? null : dispatch().served();
        return served != null ? served.cluster() : routed() == null ? null : routed().decision().cluster();
    }

    /**
     * The fallback reason the client is told: {@code refusal_fallback} after a retried refusal, else the decision's,
     * else {@code node_bypass} when another node served.
     */
    default String fallbackReason() {
        if (refusal().kind() == Refusal.Kind.RETRIED) {
            return "refusal_fallback";
        }
        Routed routed = routed();
        if (routed != null && routed.decision().fallbackTriggered()) {
            return routed.decision().fallbackReason();
        }
        return dispatch() != null && dispatch().bypassed() ? "node_bypass" : null;
    }

    /** Input and output tokens of the served answer. */
    record Usage(int input, int output) {
        static final Usage NONE = new Usage(0, 0);
    }

    /** Refusal handling applied to the answer. */
    record Refusal(Kind kind, String from, String to) {

        static final Refusal NONE = new Refusal(Kind.NONE, null, null);
        static final Refusal ANNOTATED = new Refusal(Kind.ANNOTATED, null, null);
        static final Refusal KEPT = new Refusal(Kind.KEPT, null, null);

        enum Kind { NONE, ANNOTATED, KEPT, RETRIED }

        static Refusal retried(String from, String to) {
            return new Refusal(Kind.RETRIED, from, to);
        }

        /** As {@code debug.refusal} shows it: null, {@code annotated}, {@code kept} or {@code retried:FROM->TO}. */
        String wire() {
            return switch (kind) {
                case NONE -> null;
                case ANNOTATED -> "annotated";
                case KEPT -> "kept";
                case RETRIED -> "retried:" + from + "->" + to;
            };
        }
    }

    /**
     * A request as it arrived: its API and mode, ids (the request span's trace id, continuing the caller's), the
     * debug flags, headers, peer and query; {@code recorded} lets its outcome be recorded once only.
     */
    record Arrival(ClientApi api, Mode mode, String requestId, String traceId, Span span, long startNanos,
            boolean debugRoute, boolean traceBody, HttpHeaders headers, InetSocketAddress remote, String query,
            AtomicBoolean recorded) implements Progress {

        @Override
        public Progress before() {
            return null;
        }

        @Override
        public Arrival arrival() {
            return this;
        }

        /** Whether another router replica passed the request here (it is never passed on again). */
        boolean passedOn() {
            return headers.containsHeader(LeaderForwarding.FORWARDED_FROM);
        }
    }

    /** An authenticated, rate-limited caller, with its routing pin (null: none). */
    record Caller(Arrival arrival, String keyId, String pin) implements Progress {

        @Override
        public Progress before() {
            return arrival;
        }
    }

    /** The caller's body, read within the size limit. */
    record Read(Caller caller, byte[] body) implements Progress {

        @Override
        public Progress before() {
            return caller;
        }

        @Override
        public boolean bodyRead() {
            return true;
        }
    }

    /** The parsed, validated request and the session hash it routes under. */
    record Parsed(Caller caller, ClientRequest request, String sessionHash) implements Progress {

        @Override
        public Progress before() {
            return caller;
        }

        @Override
        public boolean bodyRead() {
            return true;
        }
    }

    /**
     * The request's decision, with its upstream bodies and the headers nodes get, and the refusal handling that led to
     * it (retry or none).
     */
    record Decided(Parsed parsed, Routed routed, UpstreamBodies upstream, ForwardedHeaders forwarded, Refusal refusal)
            implements Progress {

        @Override
        public Progress before() {
            return parsed;
        }
    }

    /** What dispatching the decision did: the dispatcher's trace, the served answer's usage and refusal handling. */
    record Dispatched(Decided decided, DispatchTrace dispatch, Usage usage, Refusal refusal) implements Progress {

        /** Dispatch under way or failed: nothing served yet. */
        static Dispatched started(Decided decided, DispatchTrace trace) {
            return new Dispatched(decided, trace, Usage.NONE, decided.refusal());
        }

        Dispatched with(Refusal handling) {
            return new Dispatched(decided, dispatch, usage, handling);
        }

        @Override
        public Progress before() {
            return decided;
        }
    }

    /** A failure in a stage, with the last progress made before it (what the outcome records). */
    final class Failed extends RuntimeException {

        private final transient Progress at;

        Failed(Progress at, Throwable cause) {
            super(cause.getMessage(), cause, false, false);
            this.at = at;
        }

        Progress at() {
            return at;
        }
    }
}
