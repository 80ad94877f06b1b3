package dev.zerolayer.complexity.policy;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.platform.view.CompactedView;

/** The policy routers apply: the latest {@code fallback.policy.v1} value, else {@link PolicyDocument#defaults()} (version 0). */
public class ActivePolicy {

    private static final PolicyDocument DEFAULTS = PolicyDocument.defaults();
    private final CompactedView<FallbackPolicy> view;

    public ActivePolicy(CompactedView<FallbackPolicy> view) {
        this.view = view;
    }

    public PolicyDocument document() {
        return view.get(FallbackPolicy.KEY).map(FallbackPolicy::document).orElse(DEFAULTS);
    }

    public long version() {
        return view.get(FallbackPolicy.KEY).map(FallbackPolicy::version).orElse(0L);
    }
}
