package dev.zerolayer.router.decision;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.api.ClientRequest;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.Fleet;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per request: encode tokens (the complexity model's encoding), score complexity (the latest published model, else the
 * built-in one), look up which nodes hold the prompt's leading KV blocks, then decide over the nodes speaking the client's API first; only when none of those can serve, over
 * the whole fleet (the dispatcher then translates).
 */
public class RequestRouter {

    private static final Logger log = LoggerFactory.getLogger(RequestRouter.class);

    private final Fleet fleet;
    private final ActivePolicy policy;
    private final CompactedView<ComplexityModel> models;
    private final DecisionEngine engine = new DecisionEngine();
    private volatile String rejectedVersion;
    private final AtomicReference<ComplexityScorer> scorer = new AtomicReference<>(ComplexityScorer.defaultScorer());

    private final PromptPrefixes prefixes;

    public RequestRouter(Fleet fleet, ActivePolicy policy, CompactedView<ComplexityModel> models,
            PromptPrefixes prefixes) {
        this.fleet = fleet;
        this.prefixes = prefixes;
        this.policy = policy;
        this.models = models;
    }

    public Routed route(ClientRequest request, String pinnedTier, String stickyNode) {
        return route(request, pinnedTier, stickyNode, null);
    }

    /** As {@link #route(ClientRequest, String, String)}, under the policy as the caller's API key sees it. */
    public Routed route(ClientRequest request, String pinnedTier, String stickyNode, String keyId) {
        long start = System.nanoTime();
        ComplexityScorer current = currentScorer();
        TokenCounter counter = TokenCounter.of(current.model().tokenizerEncoding());
        TokenCounter.Encoded encoded = counter.encode(request.conversation());
        int tokens = encoded.tokenCount();
        double complexity = clamp(current.scoreValue(request.conversation()));
        PolicyDocument document = policy.documentFor(keyId);
        PromptPrefixes.Lookup prefix = prefixes.lookup(encoded.ids());
        DecisionInput input = new DecisionInput(tokens, complexity, pinnedTier,
                prefixes.cacheAware() ? stickyNode : null, prefix.chain().length);
        List<NodeCandidate> all = fleet.candidates(prefix.leadingBlocksHeld());
        List<NodeCandidate> same = all.stream().filter(n -> speaksClientApi(n, request)).toList();
        RouteDecision decision = engine.decide(input, same, document);
        boolean cross = false;
        if (!decision.servable() && same.size() < all.size()) {
            RouteDecision anyProtocol = engine.decide(input, all, document);
            if (anyProtocol.servable()) {
                decision = anyProtocol;
                cross = true;
            }
        }
        return new Routed(decision, tokens, complexity, current.modelVersion(), policy.version(), cross,
                System.nanoTime() - start, prefix.chain());
    }

    /** Token count alone, for {@code count_tokens}. */
    public int countTokens(ClientRequest request) {
        ComplexityScorer current = currentScorer();
        return TokenCounter.of(current.model().tokenizerEncoding()).count(request.conversation());
    }

    public Optional<NodeRegistration> registration(String node) {
        return fleet.registration(node);
    }

    private boolean speaksClientApi(NodeCandidate node, ClientRequest request) {
        return fleet.registration(node.nodeId()).map(r -> r.protocol() == request.api().protocol()).orElse(false);
    }

    private ComplexityScorer currentScorer() {
        ComplexityScorer now = scorer.get();
        Optional<ComplexityModel> published = models.get(ComplexityModel.KEY);
        if (published.isPresent() && !published.get().modelVersion().equals(now.modelVersion())
                && !published.get().modelVersion().equals(rejectedVersion)) {
            try {
                ComplexityScorer next = ComplexityScorer.withModel(published.get());
                scorer.compareAndSet(now, next);
                log.info("complexity model {} in use", next.modelVersion());
                return next;
            } catch (IllegalArgumentException e) {
                rejectedVersion = published.get().modelVersion();
                log.warn("ignoring unusable complexity model {}: {}", published.get().modelVersion(), e.getMessage());
            }
        }
        return now;
    }

    private static double clamp(double value) {
        return Double.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0.5;
    }
}
