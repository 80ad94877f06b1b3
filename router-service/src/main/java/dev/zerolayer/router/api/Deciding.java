package dev.zerolayer.router.api;

import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.decision.RequestRouter;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.translate.UpstreamBodies;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ForwardedHeaders;
import dev.zerolayer.router.wire.ClientRequest;

/** The route stage: a parsed request decided (with its session's sticky node), and refused when nothing can serve it. */
final class Deciding {

    private final RequestRouter router;
    private final CompactedView<SessionEntry> sessions;
    private final GatewayMetrics metrics;

    Deciding(RequestRouter router, CompactedView<SessionEntry> sessions, GatewayMetrics metrics) {
        this.router = router;
        this.sessions = sessions;
        this.metrics = metrics;
    }

    Progress.Decided route(Progress.Parsed parsed) {
        ClientRequest request = parsed.request();
        UpstreamBodies upstream = new UpstreamBodies(request);
        String sticky = sessions.get(parsed.sessionHash()).map(SessionEntry::stickyNode).orElse(null);
        Routed routed = router.route(request, upstream, parsed.caller().pin(), sticky, parsed.keyId());
        metrics.routed(routed.decision().tier(), routed.decision().cluster(), routed.routeNanos());
        return new Progress.Decided(parsed, routed, upstream, ForwardedHeaders.of(parsed.arrival().headers()),
                Progress.Refusal.NONE);
    }

    /** The decision when a node can serve it; else 400 when only translation blocks it, 529 otherwise. */
    static Progress.Decided servable(Progress.Decided decided) {
        Routed routed = decided.routed();
        if (routed.decision().servable()) {
            return decided;
        }
        if (routed.blocked() != null) {
            throw ApiException.invalid(routed.blocked().describe(decided.arrival().api() == ClientApi.ANTHROPIC
                    ? "OpenAI" : "Anthropic") + ", and no node speaking the client's API can serve the request now");
        }
        throw ApiException.overloaded("no node can serve the request right now");
    }

    /** The same request decided again, pinned to {@code tier} (a refusal retry); null when nothing there can serve. */
    Progress.Decided retryOn(Progress.Decided first, String tier, Progress.Refusal handling) {
        Routed retry = router.route(first.request(), first.upstream(), tier, null, first.keyId());
        if (!retry.decision().servable()) {
            return null;
        }
        return new Progress.Decided(first.parsed(), retry, first.upstream(), first.forwarded(), handling);
    }
}
