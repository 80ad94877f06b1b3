package dev.zerolayer.console.live;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;

/** The active policy as the console shows it: version, who set it, and the document. */
public record PolicyRow(long version, String updatedBy, PolicyDocument document) {

    public static PolicyRow of(FallbackPolicy policy) {
        return new PolicyRow(policy.version(), policy.updatedBy(), policy.document());
    }
}
