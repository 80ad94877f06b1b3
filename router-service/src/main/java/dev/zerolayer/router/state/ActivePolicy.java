package dev.zerolayer.router.state;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.platform.view.CompactedView;

/** The policy in force: the latest {@code fallback.policy.v1} value in the view, else {@link PolicyDocument#defaults()} (version 0). */
public class ActivePolicy {

    private static final PolicyDocument DEFAULTS = PolicyDocument.defaults();
    private final CompactedView<FallbackPolicy> view;

    public ActivePolicy(CompactedView<FallbackPolicy> view) {
        this.view = view;
    }

    public PolicyDocument document() {
        return view.get(FallbackPolicy.KEY).map(FallbackPolicy::document).orElse(DEFAULTS);
    }

    /** The policy with the API key's overrides applied (thresholds, tier limits). */
    public PolicyDocument documentFor(String keyId) {
        return document().forApiKey(keyId);
    }

    public long version() {
        return view.get(FallbackPolicy.KEY).map(FallbackPolicy::version).orElse(0L);
    }
}
