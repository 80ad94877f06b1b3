package dev.zerolayer.bench.failover;

import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What one injected fault did, from three observations in wall-clock milliseconds: the router's explain answers
 * (does the decision still consider the node), its decision events (which nodes each request tried) and what the
 * client saw. First bypass = the earlier of the decision excluding the node and the first request that tried the
 * node and was served by another.
 */
public final class FailoverAnalysis {

    /** One {@code /v1/route/explain} poll: when, and whether the faulted node was an eligible candidate. */
    public record ExplainSample(long atMillis, boolean eligible, String excludedBecause) {
    }

    /** One client request: due time, answer time, HTTP status (0 = transport error), node from the route header. */
    public record ClientRecord(long dueMillis, long doneMillis, int status, String node) {
        public boolean error() {
            return status != 200;
        }
    }

    /** The figures of one fault. */
    public record Result(String fault, String node, long injectedAtMillis, long faultMillis, Long excludedAfterMs,
            String excludedBecause, Long dispatchBypassAfterMs, Long firstBypassAfterMs, Long lastServedByNodeAfterMs,
            long servedByNodeDuringFault, long requestsInWindow, long clientErrorsInWindow, double p50InWindowMs,
            double p99InWindowMs, double p99BeforeMs, Long eligibleAgainAfterEndMs, long decisionsSeen,
            String errorStatuses) {
    }

    private FailoverAnalysis() {
    }

    /**
     * @param windowEndMillis end of the observation window (fault end plus the recovery tail)
     */
    public static Result analyse(String fault, String node, long injectedAt, long faultMillis, long windowEndMillis,
            List<ExplainSample> explains, List<RoutingDecision> decisions, List<ClientRecord> clients) {
        Long excluded = null;
        String because = null;
        for (ExplainSample s : explains) {
            if (s.atMillis() >= injectedAt && !s.eligible()) {
                excluded = s.atMillis() - injectedAt;
                because = s.excludedBecause();
                break;
            }
        }
        long faultEnd = injectedAt + faultMillis;
        Long eligibleAgain = null;
        for (ExplainSample s : explains) {
            if (s.atMillis() >= faultEnd && s.eligible()) {
                eligibleAgain = s.atMillis() - faultEnd;
                break;
            }
        }
        OptionalLong dispatch = decisions.stream()
                .filter(d -> d.status() != DecisionStatus.EXPLAINED)
                .filter(d -> d.occurredAt().toEpochMilli() >= injectedAt)
                .filter(d -> d.nodesTried().contains(node) && d.node() != null && !node.equals(d.node()))
                .mapToLong(d -> d.occurredAt().toEpochMilli() - injectedAt).min();
        Long dispatchBypass = dispatch.isPresent() ? dispatch.getAsLong() : null;
        Long first;
        if (excluded == null || dispatchBypass == null) {
            first = excluded == null ? dispatchBypass : excluded;
        } else {
            first = Math.min(excluded, dispatchBypass);
        }
        Long lastServed = null;
        long servedDuring = 0;
        for (ClientRecord c : clients) {
            if (c.dueMillis() >= injectedAt && c.dueMillis() < faultEnd && node.equals(c.node()) && !c.error()) {
                servedDuring++;
                long after = c.dueMillis() - injectedAt;
                lastServed = lastServed == null ? after : Math.max(lastServed, after);
            }
        }
        List<ClientRecord> window = clients.stream()
                .filter(c -> c.dueMillis() >= injectedAt && c.dueMillis() < windowEndMillis).toList();
        long errors = window.stream().filter(ClientRecord::error).count();
        java.util.Map<Integer, Long> byStatus = new java.util.TreeMap<>();
        window.stream().filter(ClientRecord::error).forEach(c -> byStatus.merge(c.status(), 1L, Long::sum));
        java.util.StringJoiner statuses = new java.util.StringJoiner(", ");
        byStatus.forEach((status, n) -> statuses.add((status == 0 ? "transport error" : status == -1 ? "no answer"
                : "HTTP " + status) + " × " + n));
        double[] latencies = window.stream().filter(c -> !c.error())
                .mapToDouble(c -> c.doneMillis() - c.dueMillis()).sorted().toArray();
        double[] before = clients.stream().filter(c -> c.dueMillis() < injectedAt && !c.error())
                .mapToDouble(c -> c.doneMillis() - c.dueMillis()).sorted().toArray();
        return new Result(fault, node, injectedAt, faultMillis, excluded, because, dispatchBypass, first, lastServed,
                servedDuring, window.size(), errors, percentile(latencies, 50), percentile(latencies, 99),
                percentile(before, 99), eligibleAgain, decisions.size(), statuses.toString());
    }

    /** Nearest-rank percentile of sorted values; NaN when empty. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The table of every fault. */
    public static String table(List<Result> results) {
        StringBuilder t = new StringBuilder("| fault | node | decision excludes the node (explain) | first dispatch "
                + "bypass (tried it, served by another) | **first bypass** | requests the node still served during the "
                + "fault (last, after injection) | requests in window | **client-visible errors** | latency in window "
                + "p50 / p99 (p99 before) | eligible again after the fault ended |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            t.append(String.format(Locale.ROOT, "| `%s` | %s | %s%s | %s | **%s** | %d%s | %d | **%d** | %s / %s ms "
                            + "(%s ms) | %s |%n", r.fault(), r.node(), ms(r.excludedAfterMs()),
                    r.excludedBecause() == null ? "" : " (" + r.excludedBecause() + ")", ms(r.dispatchBypassAfterMs()),
                    ms(r.firstBypassAfterMs()), r.servedByNodeDuringFault(), r.lastServedByNodeAfterMs() == null ? ""
                            : " (" + ms(r.lastServedByNodeAfterMs()) + ")", r.requestsInWindow(),
                    r.clientErrorsInWindow(), num(r.p50InWindowMs()), num(r.p99InWindowMs()), num(r.p99BeforeMs()),
                    ms(r.eligibleAgainAfterEndMs())));
        }
        return t.toString();
    }

    static String ms(Long v) {
        return v == null ? "not observed" : String.format(Locale.ROOT, "%,d ms", v);
    }

    static String num(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f", v);
    }

    /** Used by tests: the percentile helper over unsorted input. */
    static double percentileOf(double[] values, double p) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return percentile(copy, p);
    }
}
