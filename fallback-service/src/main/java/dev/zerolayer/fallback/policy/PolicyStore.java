package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.event.Writer;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.fallback.policy.HistoryEntry.Action;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import dev.zerolayer.platform.leader.Leadership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The policy as this replica holds it: while it leads (from the reconciliation at the start of its term) it is the one
 * writer, and a change becomes version n+1 only when the caller's version is n and the broker has acknowledged it;
 * while it follows, a change is refused with 503 and {@code Retry-After}, and each version another replica published is
 * adopted from the topic. Either way every version goes into this replica's durable history. Reconciliation makes the
 * history and the topic agree; an empty topic and history get the built-in default as version 1.
 */
public class PolicyStore {

    private static final Logger log = LoggerFactory.getLogger(PolicyStore.class);
    public static final String SYSTEM = "fallback-service";

    private final PolicyHistory history;
    private final PolicyPublisher publisher;
    private final Clock clock;
    private final Supplier<Writer> writer;
    private final List<HistoryEntry> entries = new ArrayList<>();
    private volatile FallbackPolicy active;
    private volatile boolean writing;

    /** A store that stamps no writer on its records (a single replica, or tests). */
    public PolicyStore(PolicyHistory history, PolicyPublisher publisher, Clock clock) {
        this(history, publisher, clock, () -> null);
    }

    /** @param writer this replica under its leadership term, stamped on the versions it publishes */
    public PolicyStore(PolicyHistory history, PolicyPublisher publisher, Clock clock, Supplier<Writer> writer) {
        this.history = history;
        this.publisher = publisher;
        this.clock = clock;
        this.writer = writer;
        entries.addAll(history.load());
        entries.sort(Comparator.comparingLong(HistoryEntry::version));
    }

    /** Outcome of a change: the resulting entry, and whether it is new (an identical document changes nothing). */
    public record Applied(HistoryEntry entry, boolean changed) {
    }

    /**
     * Adopts the topic's state at the start of this replica's term as writer, and takes writes from then on:
     * {@code published} is the newest valid record of the topic (empty when none), and {@code highestSeen} the highest
     * version any record carried (a new version must be above it).
     */
    public synchronized void initialise(Optional<FallbackPolicy> published, long highestSeen) {
        initialise(published, highestSeen, () -> true);
    }

    /** As {@link #initialise(Optional, long)}, taking writes only if the term is still this replica's when done. */
    public synchronized void initialise(Optional<FallbackPolicy> published, long highestSeen,
            java.util.function.BooleanSupplier stillLeading) {
        reconcile(published, highestSeen);
        writing = stillLeading.getAsBoolean();
    }

    /** Stops taking writes: another replica leads (or may, until this one's next term is reconciled). */
    public synchronized void follow() {
        writing = false;
    }

    /** Whether this replica takes writes now. */
    public boolean writing() {
        return writing;
    }

    /**
     * A version read from the topic: one above the active version (published by the replica that leads) becomes
     * active and enters the history as observed, with who and when; others change nothing.
     */
    public synchronized void observe(FallbackPolicy published) {
        FallbackPolicy current = active;
        if (current != null && published.version() <= current.version()) {
            return;
        }
        if (find(published.version()).isEmpty()) {
            HistoryEntry latest = entries.isEmpty() ? null : entries.get(entries.size() - 1);
            record(new HistoryEntry(published.version(), published.occurredAt(), published.updatedBy(),
                    Action.OBSERVED, null, diff(latest, published.document()), published.document()));
        }
        active = published;
    }

    private void reconcile(Optional<FallbackPolicy> published, long highestSeen) {
        entries.clear();
        entries.addAll(history.load());
        entries.sort(Comparator.comparingLong(HistoryEntry::version));
        HistoryEntry latest = entries.isEmpty() ? null : entries.get(entries.size() - 1);
        if (published.isPresent()) {
            FallbackPolicy onTopic = published.get();
            if (latest == null || onTopic.version() > latest.version()) {
                HistoryEntry observed = new HistoryEntry(onTopic.version(), onTopic.occurredAt(), onTopic.updatedBy(),
                        Action.OBSERVED, null, diff(latest, onTopic.document()), onTopic.document());
                record(observed);
                active = onTopic;
                log.info("policy version {} adopted from fallback.policy.v1 (not in the local history)",
                        onTopic.version());
                return;
            }
            if (onTopic.version() == latest.version()) {
                active = onTopic;
                log.info("policy version {} active, history of {} version(s)", onTopic.version(), entries.size());
                return;
            }
        }
        if (latest != null) {
            long version = Math.max(latest.version(), highestSeen + 1);
            FallbackPolicy restored = event(version, latest.by(), latest.document());
            if (version != latest.version()) {
                HistoryEntry entry = new HistoryEntry(version, restored.occurredAt(), SYSTEM, Action.ROLLBACK,
                        latest.version(), List.of(), latest.document());
                publishOrFail(restored);
                record(entry);
            } else {
                publishOrFail(restored);
            }
            active = restored;
            log.warn("fallback.policy.v1 lacked the history's version {}; republished it as version {}",
                    latest.version(), version);
            return;
        }
        FallbackPolicy initial = event(Math.max(1, highestSeen + 1), SYSTEM, PolicyDocument.defaults());
        publishOrFail(initial);
        record(new HistoryEntry(initial.version(), initial.occurredAt(), SYSTEM, Action.INITIAL, null, List.of(),
                initial.document()));
        active = initial;
        log.info("empty fallback.policy.v1: published the built-in default as version {}", initial.version());
    }

    public boolean ready() {
        return active != null;
    }

    /** The version in force (503 before the topic has been read). */
    public FallbackPolicy active() {
        FallbackPolicy current = active;
        if (current == null) {
            throw PolicyStoreException.notReady();
        }
        return current;
    }

    /** The document in force, or the built-in default before the topic has been read. */
    public PolicyDocument documentOrDefault() {
        FallbackPolicy current = active;
        return current == null ? PolicyDocument.defaults() : current.document();
    }

    /** Makes {@code document} the next version if {@code expectedVersion} (empty: any) is the active one. */
    public synchronized Applied update(PolicyDocument document, String by, OptionalLong expectedVersion) {
        return apply(document, by, expectedVersion, Action.UPDATE, null);
    }

    /** Publishes an earlier version's document again as the next version. */
    public synchronized Applied rollback(long version, String by, OptionalLong expectedVersion) {
        HistoryEntry target = find(version).orElseThrow(() -> new PolicyStoreException(404, "not_found_error",
                "version " + version + " is not in the policy history"));
        return apply(target.document(), by, expectedVersion, Action.ROLLBACK, version);
    }

    public synchronized List<HistoryEntry> history() {
        return List.copyOf(entries);
    }

    public synchronized Optional<HistoryEntry> find(long version) {
        return entries.stream().filter(e -> e.version() == version).findFirst();
    }

    private Applied apply(PolicyDocument document, String by, OptionalLong expectedVersion, Action action,
            Long restored) {
        if (!writing) {
            throw Leadership.notWriting("the policy");
        }
        FallbackPolicy current = active();
        if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current.version()) {
            throw PolicyStoreException.stale(expectedVersion.getAsLong(), current.version());
        }
        List<PolicyChange> changes = PolicyDiff.between(PolicyReader.toTree(current.document()),
                PolicyReader.toTree(document));
        if (changes.isEmpty()) {
            return new Applied(find(current.version()).orElseGet(() -> new HistoryEntry(current.version(),
                    current.occurredAt(), current.updatedBy(), Action.OBSERVED, null, List.of(), document)), false);
        }
        FallbackPolicy next = event(current.version() + 1, by, document);
        publishOrFail(next);
        active = next;
        HistoryEntry entry = new HistoryEntry(next.version(), next.occurredAt(), by, action, restored, changes,
                document);
        record(entry);
        log.info("policy version {} ({}) by {}: {} change(s)", next.version(), action, by, changes.size());
        return new Applied(entry, true);
    }

    private void record(HistoryEntry entry) {
        entries.add(entry);
        try {
            history.append(entry);
        } catch (RuntimeException e) {
            // The version is published: a restart adopts it from the topic as OBSERVED, keeping who and when.
            log.error("policy version {} is active but its history entry could not be written: {}", entry.version(),
                    e.getMessage());
        }
    }

    private void publishOrFail(FallbackPolicy policy) {
        if (!publisher.publish(policy)) {
            throw PolicyStoreException.unpublished(policy.version());
        }
    }

    private FallbackPolicy event(long version, String by, PolicyDocument document) {
        Instant now = clock.instant();
        return new FallbackPolicy(EventChecks.newEventId(), now, FallbackPolicy.SCHEMA_VERSION, version, by, document,
                writer.get());
    }

    private static List<PolicyChange> diff(HistoryEntry before, PolicyDocument after) {
        return before == null ? List.of() : PolicyDiff.between(PolicyReader.toTree(before.document()),
                PolicyReader.toTree(after));
    }
}
