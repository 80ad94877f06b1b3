package dev.zerolayer.router.api;

import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.answer.InputItemsQuery;
import dev.zerolayer.router.answer.ItemHeldElsewhere;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.dispatch.Dispatcher;
import dev.zerolayer.router.dispatch.NodeCredentials;
import dev.zerolayer.router.events.DecisionPublisher;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.tracing.RequestTracing;
import dev.zerolayer.router.wire.Bytes;
import dev.zerolayer.router.wire.ClientApi;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.springframework.http.HttpHeaders;
import org.springframework.http.support.Netty4HeadersAdapter;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client APIs as ordered stages over immutable {@link Progress} records: authenticate → read → parse → route →
 * (count | explain | dispatch whole → refusal | dispatch streamed) → outcome; a stage's failure carries the progress
 * made before it, and {@link Failures} alone maps it to the status and body the client gets.
 */
public class GatewayHandler {

    /** The request id header (as the Anthropic API sends it); the decision event is keyed by it. */
    public static final String REQUEST_ID = Replies.REQUEST_ID;
    /** Bodies larger than this are parsed and counted off the event loop. */
    private static final int LARGE_BODY = 256 * 1024;

    private final RequestTracing tracing;
    private final Intake intake;
    private final Deciding deciding;
    private final Dispatching dispatching;
    private final RefusalStage refusals;
    private final RequestRouter router;
    private final Replies replies;
    private final PeerForwarding peers;
    private final ResponseItems responseItems;

    /**
     * @param peers where a Responses request naming another replica's items is passed; null: nowhere (the warm-up's
     *              gateway, whose items no peer names)
     */
    public GatewayHandler(ApiKeyAuthenticator authenticator, RateLimits rateLimits, RequestRouter router,
            Dispatcher dispatcher, ActivePolicy policy, CompactedView<SessionEntry> sessions,
            DecisionPublisher publisher, GatewayMetrics metrics, long maxBodyBytes, RequestTracing tracing,
            ResponseItems responseItems, NodeCredentials credentials, PeerForwarding peers) {
        Outcomes outcomes = new Outcomes(metrics, publisher, tracing, router);
        this.tracing = tracing;
        this.router = router;
        this.intake = new Intake(authenticator, rateLimits, new RequestBodies(maxBodyBytes), responseItems);
        this.deciding = new Deciding(router, sessions, metrics);
        this.dispatching = new Dispatching(dispatcher, router, policy, tracing, credentials, responseItems, metrics,
                outcomes);
        this.refusals = new RefusalStage(policy, deciding, dispatching);
        this.replies = new Replies(outcomes);
        this.peers = peers;
        this.responseItems = responseItems;
    }

    /** A POST to one of the client APIs: authenticate → read → parse → route → count, explain or dispatch → reply. */
    public Mono<Void> serve(ClientEndpoint endpoint, ClientCall call) {
        return handle(call, endpoint.api(), endpoint.mode());
    }

    /** {@code GET /v1/responses/{id}}: a stored Responses answer, as it was answered. */
    public Mono<Void> storedResponse(ClientCall call, String id) {
        return stored(call, id, responseItems::retrieve);
    }

    /** {@code DELETE /v1/responses/{id}}: forgets a stored Responses answer and its output items. */
    public Mono<Void> deleteResponse(ClientCall call, String id) {
        return stored(call, id, responseItems::delete);
    }

    /** {@code GET /v1/responses/{id}/input_items}: a page of the input items a stored answer was answered from. */
    public Mono<Void> responseInputItems(ClientCall call, String id) {
        Map<String, List<String>> query = call.query() == null ? Map.of()
                : new QueryStringDecoder(call.query(), StandardCharsets.UTF_8, false).parameters();
        return stored(call, id, (item, passedOn, keyId) -> responseItems.inputItems(item, passedOn, keyId,
                InputItemsQuery.of(first(query, "limit"), first(query, "order"), first(query, "after"))));
    }

    private static Optional<String> first(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** What is done with a stored answer: by its id, whether a peer passed the request here, for the asking key. */
    @FunctionalInterface
    private interface StoredAnswerStep {
        ObjectNode apply(String id, boolean passedOn, String keyId);
    }

    /** Authenticate → read or delete the stored answer here, or at the replica that keeps it → reply. */
    private Mono<Void> stored(ClientCall call, String id, StoredAnswerStep step) {
        Progress.Arrival arrival = arrive(call, ClientApi.RESPONSES, Progress.Mode.STORED);
        return stage(arrival, a -> Mono.just(intake.authenticate(a)))
                .flatMap(caller -> stage(caller, c -> Mono.just(replies.json(c, DecisionStatus.EXPLAINED,
                                step.apply(id, arrival.passedOn(), c.keyId()))))
                        .onErrorResume(e -> peers != null && e.getCause() instanceof ItemHeldElsewhere,
                                e -> peers.forward(call, new Progress.Read(caller, new byte[0]),
                                        (ItemHeldElsewhere) e.getCause())))
                .onErrorResume(e -> Mono.just(replies.error(e instanceof Progress.Failed failed ? failed
                        : new Progress.Failed(arrival, e))))
                .flatMap(reply -> reply.writeTo(call.response()));
    }

    private Mono<Void> handle(ClientCall call, ClientApi api, Progress.Mode mode) {
        Progress.Arrival arrival = arrive(call, api, mode);
        return stage(arrival, a -> Mono.just(intake.authenticate(a)))
                .flatMap(caller -> stage(caller, c -> intake.read(c, call.http())))
                .flatMap(read -> (read.body().length > LARGE_BODY || namesPreviousResponse(read)
                        // a large body's parsing and token counting would hold the event loop: done on a worker (a
                        // previous response's conversation, put before the input, may be any size)
                        ? afterRead(call, read).subscribeOn(Schedulers.boundedElastic())
                        : afterRead(call, read))
                        .onErrorResume(e -> peers != null && e.getCause() instanceof ItemHeldElsewhere,
                                e -> peers.forward(call, read, (ItemHeldElsewhere) e.getCause())))
                .onErrorResume(e -> Mono.just(replies.error(e instanceof Progress.Failed failed ? failed
                        : new Progress.Failed(arrival, e))))
                // written once every stage has run: a failure while writing is the connection's, not a stage's
                .flatMap(reply -> reply.writeTo(call.response()));
    }

    private static final byte[] PREVIOUS_RESPONSE = "\"previous_response_id\"".getBytes(StandardCharsets.US_ASCII);

    /** Whether a Responses body may name a previous response (its bytes hold the field's name). */
    private static boolean namesPreviousResponse(Progress.Read read) {
        if (read.arrival().api() != ClientApi.RESPONSES) {
            return false;
        }
        return Bytes.indexOf(read.body(), PREVIOUS_RESPONSE, 0) >= 0;
    }

    private Progress.Arrival arrive(ClientCall call, ClientApi api, Progress.Mode mode) {
        HttpHeaders headers = new HttpHeaders(new Netty4HeadersAdapter(call.http().requestHeaders()));
        io.micrometer.tracing.Span span = tracing.start(headers);
        return new Progress.Arrival(api, mode, EventChecks.newEventId(), span.context().traceId(), span,
                System.nanoTime(), ZeroLayerHeaders.DEBUG_ROUTE_VALUE.equals(headers.getFirst(ZeroLayerHeaders.DEBUG)),
                "true".equalsIgnoreCase(headers.getFirst(ZeroLayerHeaders.TRACE)), headers,
                call.http().remoteAddress(), call.query(), new AtomicBoolean());
    }

    /** Parse, then count; or route, then explain or dispatch. */
    private Mono<Reply> afterRead(ClientCall call, Progress.Read read) {
        Mono<Progress.Parsed> parsed = stage(read, r -> Mono.just(intake.parse(r)));
        if (read.arrival().mode() == Progress.Mode.COUNT) {
            return parsed.map(p -> replies.json(p, DecisionStatus.EXPLAINED,
                    EventCodec.mapper().createObjectNode().put("input_tokens", router.countTokens(p.request()))));
        }
        Mono<Progress.Decided> decided = parsed.flatMap(p -> stage(p, q -> Mono.just(deciding.route(q))));
        if (read.arrival().mode() == Progress.Mode.EXPLAIN) {
            return decided.map(d -> replies.json(d, DecisionStatus.EXPLAINED,
                    dispatching.withRecovery(d, Explanations.of(d.arrival().requestId(), d.routed(),
                            router.explainComplexity(d.request())))));
        }
        return decided.flatMap(d -> stage(d, e -> Mono.just(Deciding.servable(e))))
                .flatMap(d -> d.request().stream()
                        ? Mono.just(dispatching.stream(d, call.response()))
                        : dispatching.whole(d)
                                .flatMap(answered -> stage(answered.dispatched(), x -> refusals.apply(answered)))
                                .flatMap(answered -> stage(answered.dispatched(), x -> Mono.just(answer(answered)))));
    }

    private Reply answer(Dispatching.Answered answered) {
        Progress.Dispatched dispatched = answered.dispatched();
        ObjectNode body = answered.body();
        if (dispatched.arrival().traceBody()) {
            body.set("debug", Outcomes.debug(dispatched));
        }
        return replies.json(dispatched, DecisionStatus.OK, body);
    }

    /** One stage: its failure carries {@code at}, the progress made before it (unless an inner stage's already does). */
    private static <P extends Progress, N> Mono<N> stage(P at, Function<P, Mono<N>> step) {
        return Mono.defer(() -> step.apply(at))
                .onErrorMap(e -> !(e instanceof Progress.Failed), e -> new Progress.Failed(at, e));
    }
}
