package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.time.Instant;
import java.util.List;

/**
 * One version of the policy as audited: who made it and when, how ({@link Action}), which version a rollback restored,
 * what changed against the version before, and the document itself (so any version can be restored).
 */
public record HistoryEntry(long version, Instant at, String by, Action action, Long restoredVersion,
        List<PolicyChange> changes, PolicyDocument document) {

    /** How a version came to be. */
    public enum Action {
        /** The built-in default, published at first start on an empty topic. */
        INITIAL,
        /** Accepted over {@code PUT /v1/policy}. */
        UPDATE,
        /** Accepted over {@code POST /v1/policy/rollback/{version}}. */
        ROLLBACK,
        /** Found on the topic at start without a local record (published by an earlier store or lost locally). */
        OBSERVED
    }

    public HistoryEntry {
        changes = changes == null ? List.of() : List.copyOf(changes);
    }
}
