package dev.zerolayer.router.decision;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.translate.UpstreamBodies;
import dev.zerolayer.router.translate.Untranslatable;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.state.ActivePolicy;
import dev.zerolayer.router.state.Fleet;
import dev.zerolayer.routing.complexity.ComplexityScore;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per request: count the prompt's tokens (everything that costs input tokens, in the complexity model's encoding),
 * refuse a prompt no tier holds, score complexity (the latest published model, else the built-in one), look up which
 * nodes hold the prompt's leading KV blocks, then decide over every node that can serve the request as it is or
 * translated without loss (the engine's protocol admission filter, given the APIs that can serve it).
 */
public class RequestRouter {

    private static final Logger log = LoggerFactory.getLogger(RequestRouter.class);
    /**
     * How far beyond the largest window (in the default count) a prompt is still rendered for served models: their
     * tokenizers count differently, but not by half.
     */
    private static final double ENGINE_COUNT_MARGIN = 1.5;

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
        return route(request, new UpstreamBodies(request), pinnedTier, stickyNode, null);
    }

    /**
     * The decision for a request under the policy as the caller's API key sees it: over the nodes that speak the
     * client's API and those of the other API when the request translates without loss (so a node of the decided tier
     * speaking the other API beats a same-API node of a lower tier, while within the tier the same-API nodes go
     * first); when only nodes the request cannot be translated for could serve, the decision says which field blocks
     * it.
     *
     * @throws ApiException 400 when the prompt is longer than every tier's context window
     */
    public Routed route(ClientRequest request, UpstreamBodies bodies, String pinnedTier, String stickyNode,
            String keyId) {
        long start = System.nanoTime();
        ComplexityScorer current = currentScorer();
        TokenCounter counter = TokenCounter.of(current.model().tokenizerEncoding());
        TokenCounter.Encoded encoded = counter.encode(request.prompt());
        int tokens = encoded.tokenCount();
        PolicyDocument document = policy.documentFor(keyId);
        List<NodeRegistration> registrations = fleet.registrations();
        // a prompt far beyond every window is refused below: its served-model rendering is not worth computing
        boolean worthRendering = tokens <= ENGINE_COUNT_MARGIN * largestWindow(document);
        PromptPrefixes.Lookup prefix = prefixes.lookup(encoded.ids(), registrations, request.model(),
                model -> worthRendering ? enginePrompt(model, request, bodies) : new ServedModel.Prompt(new int[0],
                        "the prompt is longer than every tier's context window"));
        Map<String, Integer> tierTokens = tierTokens(prefix.engineTokens(), registrations);
        refuseOverlong(tokens, tierTokens, document);
        double complexity = clamp(current.scoreValue(request.conversation()));
        Set<String> nativeApis = new HashSet<>(2);
        Set<String> servableApis = new HashSet<>(2);
        for (UpstreamProtocol protocol : UpstreamProtocol.values()) {
            if (request.api().nativeTo(protocol)) {
                nativeApis.add(protocol.wireName());
                servableApis.add(protocol.wireName());
            } else if (bodies.problem(protocol) == null) {
                servableApis.add(protocol.wireName());
            }
        }
        List<NodeCandidate> all = fleet.candidates(prefix.leadingBlocksHeld());
        int nativeNodes = 0;
        int translatedNodes = 0;
        int blockedNodes = 0;
        for (NodeCandidate node : all) {
            String protocol = node.traits().protocol();
            if (nativeApis.contains(protocol)) {
                nativeNodes++;
            } else if (servableApis.contains(protocol)) {
                translatedNodes++;
            } else {
                blockedNodes++;
            }
        }
        // the protocol admission filter leaves out the nodes the request cannot be sent to
        DecisionInput input = new DecisionInput(tokens, complexity, pinnedTier,
                prefixes.cacheAware() ? stickyNode : null, prefix.chain().length, request.model(),
                blockedNodes == 0 ? null : servableApis, tierTokens);
        RouteDecision decision = engine.decide(input, all, document);
        if (decision.servable() && nativeNodes > 0 && translatedNodes > 0) {
            decision = preferNative(engine.decide(input.withProtocols(nativeApis), all, document), decision,
                    document);
        }
        Untranslatable blocked = null;
        if (!decision.servable() && blockedNodes > 0) {
            RouteDecision anyProtocol = engine.decide(input.withProtocols(null), all, document);
            if (anyProtocol.servable()) {
                blocked = bodies.problem(fleet.registration(anyProtocol.node()).map(NodeRegistration::protocol)
                        .orElse(null));
            }
        }
        boolean cross = decision.servable() && !request.api().nativeTo(fleet.registration(decision.node())
                .map(NodeRegistration::protocol).orElse(null));
        return new Routed(decision, decision.tier() == null ? tokens : input.tokenCount(decision.tier()), complexity,
                current.modelVersion(), policy.version(), cross, System.nanoTime() - start, prefix, blocked);
    }

    /** The prompt as a vLLM node of {@code model} receives it: the completions prompt, else the chat body. */
    private static ServedModel.Prompt enginePrompt(ServedModel model, ClientRequest request, UpstreamBodies bodies) {
        if (request.api() == ClientApi.COMPLETIONS) {
            return model.completion(request.body());
        }
        ObjectNode chat = bodies.openAiBody();
        return chat == null ? new ServedModel.Prompt(new int[0], "the request cannot be sent to an OpenAI-protocol node")
                : model.chat(chat);
    }

    /**
     * Within the tier the whole fleet decides, a node speaking the client's API goes first (no translation); nodes of
     * the other API stay behind it for bypass. A tier the client's API alone would have to drop to is not taken.
     */
    private static RouteDecision preferNative(RouteDecision sameApi, RouteDecision any, PolicyDocument document) {
        if (!sameApi.servable() || !sameApi.tier().equals(any.tier())) {
            return any;
        }
        List<String> ranked = new ArrayList<>(sameApi.ranked());
        any.ranked().stream().filter(node -> !ranked.contains(node)).forEach(ranked::add);
        int attempts = 1 + Math.max(0, document.resilience().hopLimit());
        return new RouteDecision(sameApi.tier(), sameApi.cluster(), sameApi.node(),
                ranked.subList(0, Math.min(ranked.size(), attempts)), any.candidates(), sameApi.fired(),
                sameApi.fallback(), sameApi.warningReason(), sameApi.cacheHit(), sameApi.pipeline(),
                sameApi.predictedTtft());
    }

    /**
     * The prompt's tokens per tier whose nodes feed it to their model through their own tokenizer (the largest count
     * among a tier's nodes); empty when no node counts that way.
     */
    private static Map<String, Integer> tierTokens(Map<String, Integer> engineTokens,
            List<NodeRegistration> registrations) {
        if (engineTokens.isEmpty()) {
            return Map.of();
        }
        Map<String, Integer> byTier = new HashMap<>(4);
        for (NodeRegistration node : registrations) {
            Integer counted = engineTokens.get(node.nodeId());
            if (counted != null) {
                byTier.merge(node.tier(), counted, Math::max);
            }
        }
        return byTier;
    }

    /** A prompt no tier holds: the API's 400, naming its token count and the largest window. */
    private static void refuseOverlong(int tokens, Map<String, Integer> tierTokens, PolicyDocument document) {
        boolean fitsOne = false;
        for (TierSpec tier : document.tiers()) {
            fitsOne |= tierTokens.getOrDefault(tier.name(), tokens) <= DecisionEngine.contextTokens(tier.name(),
                    document);
        }
        if (!document.tiers().isEmpty() && !fitsOne) {
            throw ApiException.invalid("prompt is too long: " + tokens + " tokens > " + largestWindow(document)
                    + " maximum");
        }
    }

    /** The largest context window of the policy's tiers (0 without tiers). */
    private static int largestWindow(PolicyDocument document) {
        int largest = 0;
        for (TierSpec tier : document.tiers()) {
            largest = Math.max(largest, DecisionEngine.contextTokens(tier.name(), document));
        }
        return largest;
    }

    /** The complexity score with its drivers by the model in use now (explain only: not on the request path). */
    public ComplexityScore explainComplexity(ClientRequest request) {
        return currentScorer().score(request.conversation());
    }

    /** Token count alone, for {@code count_tokens}. */
    public int countTokens(ClientRequest request) {
        ComplexityScorer current = currentScorer();
        return TokenCounter.of(current.model().tokenizerEncoding()).count(request.prompt());
    }

    /** Remembers which node served a routed request (approximate prefix matching for the nodes that need it). */
    public void served(Routed routed, String node) {
        prefixes.served(node, routed.prefix());
    }

    public Optional<NodeRegistration> registration(String node) {
        return fleet.registration(node);
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
