package dev.zerolayer.cache.session;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Sessions from the router's decisions: each session's sticky node (the first node that served it; it moves at once
 * when the sticky node may no longer be stuck to — not HEALTHY or overloaded — and after {@code moveAfter} consecutive
 * requests served elsewhere otherwise), its recent prompts' leading blocks and its streak of consecutive similar
 * prompts; a streak of {@code prewarmStreak} asks the sticky node to prewarm the blocks those prompts share, at most
 * once per {@code prewarmInterval}. Changed sessions are drained for publication; idle and surplus ones for tombstones
 * (all of them, or one partition's).
 */
public final class SessionTracker {

    private final SessionRules rules;
    private final Predicate<String> canStick;
    private final LinkedHashMap<String, Session> sessions = new LinkedHashMap<>(1024, 0.75f, true);
    private final Set<String> changed = new LinkedHashSet<>();
    private final Set<String> forgotten = new LinkedHashSet<>();

    public SessionTracker(SessionRules rules, Predicate<String> canStick) {
        this.rules = rules;
        this.canStick = canStick;
    }

    /** Takes one decision; returns the prewarm command it triggers, if any. */
    public synchronized Optional<PrewarmCommand> observe(RoutingDecision decision, Instant now) {
        String hash = decision.sessionHash();
        String node = decision.node();
        if (hash == null || hash.isBlank() || node == null || node.isBlank()
                || !(decision.status() == DecisionStatus.OK || decision.status() == DecisionStatus.STREAM_FAILED)) {
            return Optional.empty();
        }
        Session session = sessions.computeIfAbsent(hash, h -> new Session());
        forgotten.remove(hash);
        session.lastSeen = now;
        stick(session, node);
        long[] prefix = leading(decision.prefixBlockHashes(), rules.prefixBlocks());
        long[] previous = session.recent.peekLast();
        boolean similar = previous != null && similar(previous, prefix);
        session.streak = similar ? session.streak + 1 : 1;
        session.recent.addLast(prefix);
        while (session.recent.size() > rules.recentPrefixes()) {
            session.recent.removeFirst();
        }
        changed.add(hash);
        evictSurplus();
        return prewarm(hash, session, now);
    }

    private void stick(Session session, String node) {
        if (session.sticky == null || session.sticky.equals(node)) {
            session.sticky = node;
            session.elsewhere = 0;
        } else if (!canStick.test(session.sticky) || ++session.elsewhere >= rules.moveAfter()) {
            session.sticky = node;
            session.elsewhere = 0;
        }
    }

    private boolean similar(long[] previous, long[] current) {
        int shared = shared(previous, current);
        int shorter = Math.min(previous.length, current.length);
        return shorter > 0 && shared >= rules.minSharedBlocks() && shared >= rules.similarity() * shorter;
    }

    private Optional<PrewarmCommand> prewarm(String hash, Session session, Instant now) {
        if (session.streak < rules.prewarmStreak()
                || (session.lastPrewarm != null && now.isBefore(session.lastPrewarm.plus(rules.prewarmInterval())))) {
            return Optional.empty();
        }
        List<long[]> streak = new ArrayList<>(session.recent).subList(
                Math.max(0, session.recent.size() - rules.prewarmStreak()), session.recent.size());
        int common = streak.get(0).length;
        for (int i = 1; i < streak.size(); i++) {
            common = Math.min(common, shared(streak.get(i - 1), streak.get(i)));
        }
        common = Math.min(common, rules.prewarmMaxBlocks());
        if (common == 0) {
            return Optional.empty();
        }
        session.lastPrewarm = now;
        List<Long> blocks = new ArrayList<>(common);
        for (int i = 0; i < common; i++) {
            blocks.add(streak.get(0)[i]);
        }
        return Optional.of(new PrewarmCommand(EventChecks.newEventId(), now, PrewarmCommand.SCHEMA_VERSION,
                session.sticky, hash, blocks, "similar_prompts:" + session.streak));
    }

    /** Takes back a session as it was published before a restart (a prewarm counts as just sent if its streak is on). */
    public synchronized void restore(SessionEntry entry) {
        Session session = new Session();
        session.sticky = entry.stickyNode();
        session.streak = entry.similarStreak();
        session.lastSeen = entry.occurredAt();
        for (List<Long> prefix : entry.recentPrefixes()) {
            session.recent.addLast(prefix.stream().mapToLong(Long::longValue).toArray());
        }
        if (session.streak >= rules.prewarmStreak()) {
            session.lastPrewarm = entry.occurredAt();
        }
        sessions.put(entry.sessionHash(), session);
    }

    /** Drops a session without a tombstone (it was tombstoned before a restart). */
    public synchronized void drop(String hash) {
        sessions.remove(hash);
    }

    /** Forgets sessions unseen for the idle time; returns how many. */
    public synchronized int expireIdle(Instant now) {
        int expired = 0;
        for (Iterator<Map.Entry<String, Session>> it = sessions.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Session> entry = it.next();
            if (!entry.getValue().lastSeen.plus(rules.idleTtl()).isAfter(now)) {
                it.remove();
                changed.remove(entry.getKey());
                forgotten.add(entry.getKey());
                expired++;
            }
        }
        return expired;
    }

    private void evictSurplus() {
        Iterator<String> eldest = sessions.keySet().iterator();
        while (sessions.size() > rules.maxSessions() && eldest.hasNext()) {
            String hash = eldest.next();
            eldest.remove();
            changed.remove(hash);
            forgotten.add(hash);
        }
    }

    /** What changed since the last drain: sessions to publish, session hashes to tombstone. */
    public synchronized Drained drain(Instant now) {
        return drain(now, hash -> true);
    }

    /** What changed since the last drain among the sessions {@code mine} accepts (one partition's); the rest wait. */
    public synchronized Drained drain(Instant now, Predicate<String> mine) {
        List<SessionEntry> entries = new ArrayList<>();
        for (Iterator<String> it = changed.iterator(); it.hasNext();) {
            String hash = it.next();
            if (!mine.test(hash)) {
                continue;
            }
            it.remove();
            Session session = sessions.get(hash);
            if (session != null) {
                entries.add(entry(hash, session, now));
            }
        }
        List<String> removed = new ArrayList<>();
        for (Iterator<String> it = forgotten.iterator(); it.hasNext();) {
            String hash = it.next();
            if (mine.test(hash)) {
                it.remove();
                removed.add(hash);
            }
        }
        return new Drained(entries, removed);
    }

    /**
     * Makes the next drain yield exactly what the published sessions lack: the sessions whose affinity differs from
     * {@code published} (hash → record as the topic has it); a published session not tracked here (a decision this
     * replica missed) is taken as published, and idles out as any other (a replica taking over from another).
     */
    public synchronized void reconcile(Map<String, SessionEntry> published, Instant now) {
        reconcile(published, now, hash -> true);
    }

    /** As {@link #reconcile(Map, Instant)}, for the sessions {@code mine} accepts (one partition's) only. */
    public synchronized void reconcile(Map<String, SessionEntry> published, Instant now, Predicate<String> mine) {
        changed.removeIf(mine);
        forgotten.removeIf(mine);
        sessions.forEach((hash, session) -> {
            if (mine.test(hash) && !entry(hash, session, now).sameAffinity(published.get(hash))) {
                changed.add(hash);
            }
        });
        published.values().stream().filter(entry -> mine.test(entry.sessionHash())
                && !sessions.containsKey(entry.sessionHash())).forEach(this::restore);
        evictSurplus();
    }

    /** Forgets what changed among the sessions {@code others} accepts (those another replica publishes). */
    public synchronized int discardChanges(Predicate<String> others) {
        int pending = changed.size() + forgotten.size();
        changed.removeIf(others);
        forgotten.removeIf(others);
        return pending - changed.size() - forgotten.size();
    }

    /** Publication failed: marks the sessions changed again and the tombstones pending again. */
    public synchronized void requeue(List<String> sessionHashes, List<String> tombstones) {
        sessionHashes.stream().filter(sessions::containsKey).forEach(changed::add);
        tombstones.stream().filter(h -> !sessions.containsKey(h)).forEach(forgotten::add);
    }

    /** The session as it would be published now. */
    public synchronized Optional<SessionEntry> get(String hash, Instant now) {
        Session session = sessions.get(hash);
        return session == null ? Optional.empty() : Optional.of(entry(hash, session, now));
    }

    public synchronized int size() {
        return sessions.size();
    }

    private static SessionEntry entry(String hash, Session session, Instant now) {
        List<List<Long>> recent = new ArrayList<>(session.recent.size());
        for (long[] prefix : session.recent) {
            recent.add(Arrays.stream(prefix).boxed().toList());
        }
        return new SessionEntry(EventChecks.newEventId(), now, SessionEntry.SCHEMA_VERSION, hash, session.sticky,
                recent, session.streak);
    }

    private static long[] leading(List<Long> blocks, int max) {
        int n = Math.min(blocks.size(), max);
        long[] prefix = new long[n];
        for (int i = 0; i < n; i++) {
            prefix[i] = blocks.get(i);
        }
        return prefix;
    }

    private static int shared(long[] a, long[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }

    /** Sessions to publish and session hashes to tombstone. */
    public record Drained(List<SessionEntry> entries, List<String> tombstones) {
    }

    private static final class Session {
        String sticky;
        int elsewhere;
        int streak;
        Instant lastSeen;
        Instant lastPrewarm;
        final ArrayDeque<long[]> recent = new ArrayDeque<>();
    }
}
