package dev.zerolayer.fallback.monitor;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.fallback.FallbackAlert;
import dev.zerolayer.contracts.fallback.FallbackAlert.AlertStatus;
import dev.zerolayer.contracts.fallback.FallbackAlerting;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Fallback rates over a sliding window per tier, per fallback reason and per API key (plus all decisions), from the
 * decisions' own timestamps; an alertable scope fires when its rate stays above the threshold for the sustain time with
 * at least the minimum decisions in the window, and resolves when it no longer is (too few decisions count as not
 * above). Rejected and explain-only decisions are not counted.
 */
public class FallbackMonitor {

    /** API keys beyond this many tracked at once are counted together under this key id. */
    public static final String OTHER_KEYS = "_other";

    private final Clock clock;
    private final int maxApiKeys;
    private final Set<ScopeKind> alertOn;
    private final Map<ScopeKind, Map<String, ScopeState>> scopes = new EnumMap<>(ScopeKind.class);
    private int windowSeconds;
    private long late;

    public FallbackMonitor(Clock clock, int maxApiKeys, Set<ScopeKind> alertOn, int windowSeconds) {
        this.clock = clock;
        this.maxApiKeys = maxApiKeys;
        this.alertOn = Set.copyOf(alertOn);
        this.windowSeconds = windowSeconds;
        for (ScopeKind kind : ScopeKind.values()) {
            scopes.put(kind, new LinkedHashMap<>());
        }
    }

    /** One scope's window and alert state. */
    private static final class ScopeState {
        final SlidingWindow window;
        Instant aboveSince;
        Instant firingSince;
        boolean firing;

        ScopeState(int windowSeconds) {
            window = new SlidingWindow(windowSeconds);
        }
    }

    /** A scope as shown by the stats endpoint. */
    public record ScopeStats(long decisions, long fallbacks, double fallbackRate, String state, Instant aboveSince,
            Instant firingSince) {
    }

    /** An alert that is firing now. */
    public record ActiveAlert(String scope, double fallbackRate, Instant since, Instant firingSince) {
    }

    /** The whole picture at one instant. */
    public record Snapshot(Instant asOf, FallbackAlerting alerting, ScopeStats all, Map<String, ScopeStats> tiers,
            Map<String, ScopeStats> reasons, Map<String, ScopeStats> apiKeys, List<ActiveAlert> alerts,
            long lateDecisions) {
    }

    public synchronized void record(RoutingDecision decision) {
        if (decision.status() == DecisionStatus.REJECTED || decision.status() == DecisionStatus.EXPLAINED) {
            return;
        }
        long now = clock.instant().getEpochSecond();
        long second = Math.min(now, decision.occurredAt().getEpochSecond());
        if (second <= now - windowSeconds) {
            late++;
            return;
        }
        int fell = decision.fallbackTriggered() ? 1 : 0;
        state(ScopeKind.ALL, ScopeKind.ALL.prefix()).window.add(second, 1, fell);
        if (decision.tier() != null && !decision.tier().isBlank()) {
            state(ScopeKind.TIER, decision.tier()).window.add(second, 1, fell);
        }
        String key = decision.apiKeyId() == null || decision.apiKeyId().isBlank() ? "anonymous" : decision.apiKeyId();
        Map<String, ScopeState> keys = scopes.get(ScopeKind.API_KEY);
        if (!keys.containsKey(key) && keys.size() >= maxApiKeys) {
            key = OTHER_KEYS;
        }
        state(ScopeKind.API_KEY, key).window.add(second, 1, fell);
        if (decision.fallbackTriggered()) {
            String reason = decision.fallbackReason() == null || decision.fallbackReason().isBlank() ? "unspecified"
                    : decision.fallbackReason();
            state(ScopeKind.REASON, reason).window.add(second, 0, 1);
        }
    }

    /**
     * Brings every alertable scope's state up to now under {@code alerting} and returns the alerts that fire or resolve
     * now; scopes with an empty window and no alert are forgotten.
     */
    public synchronized List<FallbackAlert> evaluate(FallbackAlerting alerting) {
        Instant now = clock.instant();
        long second = now.getEpochSecond();
        resizeTo((int) alerting.windowSeconds(), second);
        SlidingWindow.Counts all = state(ScopeKind.ALL, ScopeKind.ALL.prefix()).window.sum(second);
        List<FallbackAlert> out = new ArrayList<>();
        for (ScopeKind kind : ScopeKind.values()) {
            var iterator = scopes.get(kind).entrySet().iterator();
            while (iterator.hasNext()) {
                var entry = iterator.next();
                ScopeState state = entry.getValue();
                SlidingWindow.Counts counts = counts(kind, state, all, second);
                if (alertOn.contains(kind)) {
                    transition(kind.scope(entry.getKey()), state, counts, alerting, now, out);
                }
                if (kind != ScopeKind.ALL && counts.decisions() == 0 && counts.fallbacks() == 0 && !state.firing) {
                    iterator.remove();
                }
            }
        }
        return out;
    }

    public synchronized Snapshot snapshot(FallbackAlerting alerting) {
        Instant now = clock.instant();
        long second = now.getEpochSecond();
        SlidingWindow.Counts all = state(ScopeKind.ALL, ScopeKind.ALL.prefix()).window.sum(second);
        List<ActiveAlert> alerts = new ArrayList<>();
        Map<ScopeKind, Map<String, ScopeStats>> stats = new EnumMap<>(ScopeKind.class);
        for (ScopeKind kind : ScopeKind.values()) {
            Map<String, ScopeStats> byName = new TreeMap<>();
            scopes.get(kind).forEach((name, state) -> {
                SlidingWindow.Counts counts = counts(kind, state, all, second);
                byName.put(name, new ScopeStats(counts.decisions(), counts.fallbacks(), counts.rate(),
                        stateOf(state, counts, alerting), state.aboveSince, state.firingSince));
                if (state.firing) {
                    alerts.add(new ActiveAlert(kind.scope(name), counts.rate(), state.aboveSince, state.firingSince));
                }
            });
            stats.put(kind, byName);
        }
        return new Snapshot(now, alerting, stats.get(ScopeKind.ALL).get(ScopeKind.ALL.prefix()),
                stats.get(ScopeKind.TIER), stats.get(ScopeKind.REASON), stats.get(ScopeKind.API_KEY), alerts, late);
    }

    /** Whether the scope's alert is firing (for the gauge). */
    public synchronized boolean firing(String scope) {
        for (ScopeKind kind : ScopeKind.values()) {
            for (var entry : scopes.get(kind).entrySet()) {
                if (kind.scope(entry.getKey()).equals(scope)) {
                    return entry.getValue().firing;
                }
            }
        }
        return false;
    }

    public synchronized int firingCount() {
        int count = 0;
        for (Map<String, ScopeState> byName : scopes.values()) {
            for (ScopeState state : byName.values()) {
                count += state.firing ? 1 : 0;
            }
        }
        return count;
    }

    private static SlidingWindow.Counts counts(ScopeKind kind, ScopeState state, SlidingWindow.Counts all,
            long second) {
        SlidingWindow.Counts own = state.window.sum(second);
        return kind == ScopeKind.REASON ? new SlidingWindow.Counts(all.decisions(), own.fallbacks()) : own;
    }

    private static void transition(String scope, ScopeState state, SlidingWindow.Counts counts,
            FallbackAlerting alerting, Instant now, List<FallbackAlert> out) {
        boolean above = counts.decisions() >= alerting.minDecisions()
                && counts.rate() > alerting.fallbackRateThreshold();
        if (above) {
            if (state.aboveSince == null) {
                state.aboveSince = now;
            }
            if (!state.firing && !now.isBefore(state.aboveSince.plusSeconds(alerting.sustainSeconds()))) {
                state.firing = true;
                state.firingSince = now;
                out.add(alert(scope, AlertStatus.FIRING, counts.rate(), alerting, now, state.aboveSince));
            }
        } else {
            if (state.firing) {
                out.add(alert(scope, AlertStatus.RESOLVED, counts.rate(), alerting, now, state.aboveSince));
            }
            state.firing = false;
            state.firingSince = null;
            state.aboveSince = null;
        }
    }

    private static String stateOf(ScopeState state, SlidingWindow.Counts counts, FallbackAlerting alerting) {
        if (state.firing) {
            return "firing";
        }
        if (counts.decisions() < alerting.minDecisions()) {
            return "insufficient";
        }
        if (counts.rate() > alerting.fallbackRateThreshold()) {
            return state.aboveSince != null ? "pending" : "above";
        }
        return "ok";
    }

    private static FallbackAlert alert(String scope, AlertStatus status, double rate, FallbackAlerting alerting,
            Instant now, Instant since) {
        return new FallbackAlert(EventChecks.newEventId(), now, FallbackAlert.SCHEMA_VERSION, scope, status, rate,
                alerting.fallbackRateThreshold(), alerting.windowSeconds(), since);
    }

    private ScopeState state(ScopeKind kind, String name) {
        return scopes.get(kind).computeIfAbsent(name, n -> new ScopeState(windowSeconds));
    }

    private void resizeTo(int seconds, long nowSecond) {
        if (seconds == windowSeconds) {
            return;
        }
        windowSeconds = seconds;
        scopes.values().forEach(byName -> byName.values().forEach(state -> state.window.resize(seconds, nowSecond)));
    }
}
