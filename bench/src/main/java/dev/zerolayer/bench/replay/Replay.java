package dev.zerolayer.bench.replay;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One policy over the whole workload on a fresh fleet: requests arrive at their trace times, the policy routes each
 * at once from the router's view, attempts carry the tier's time-to-first-byte limit and the request's first-byte
 * deadline (default policy), a failure before the first byte moves to the next ranked node only where the policy
 * bypasses, a request that fails before its first token is sent again once by its client {@value #RETRY_BACKOFF} s
 * later (as the Anthropic/OpenAI SDKs' first retry), through the same policy, and the run ends when every request and
 * retry has an outcome. Deterministic for the workload, faults and seed.
 */
public final class Replay {

    /** Every attempt made: node index and start time, in order. */
    public record Attempt(int node, double at) {
    }

    /**
     * A run's result: first-try outcomes by request id, per-node utilisation, attempts, fallback counts, simulation
     * cost, the client retries' outcomes by request id (null where the first try needed none), and the policy's TTFT
     * prediction error (null when it predicts none).
     */
    public record Result(String policy, List<Outcome> outcomes, List<String> nodeIds, List<String> nodeTiers,
            double[] utilisation, List<Attempt> attempts, Map<String, Integer> fallbacks, long events,
            long healthRecords, double horizon, List<Outcome> retries, Metrics.PredictionError predictionError) {

        /** A result of a policy that predicts no TTFT. */
        public Result(String policy, List<Outcome> outcomes, List<String> nodeIds, List<String> nodeTiers,
                double[] utilisation, List<Attempt> attempts, Map<String, Integer> fallbacks, long events,
                long healthRecords, double horizon, List<Outcome> retries) {
            this(policy, outcomes, nodeIds, nodeTiers, utilisation, attempts, fallbacks, events, healthRecords, horizon,
                    retries, null);
        }

        /** The retry of request {@code id}, or null. */
        public Outcome retry(int id) {
            return retries.isEmpty() ? null : retries.get(id);
        }
    }

    static final double START = -2.0;
    /** The client's pause before its one retry (the Anthropic SDK's initial retry delay). */
    static final double RETRY_BACKOFF = 0.5;

    private final PolicyDocument policy;
    private final FleetSpec fleet;
    private final FaultScript faults;
    private final long seed;

    public Replay(PolicyDocument policy, FleetSpec fleet, FaultScript faults, long seed) {
        this.policy = policy;
        this.fleet = fleet;
        this.faults = faults;
        this.seed = seed;
    }

    public Result run(RoutingPolicy routing, List<SimRequest> requests) {
        EventLoop loop = new EventLoop(START);
        double horizon = requests.isEmpty() ? 0 : requests.get(requests.size() - 1).arrival();
        List<SimNode> nodes = new ArrayList<>();
        Map<String, SimNode> byId = new HashMap<>();
        for (FleetSpec.Member member : fleet.members()) {
            SimNode node = new SimNode(loop, member, 0, horizon);
            nodes.add(node);
            byId.put(member.id(), node);
        }
        RouterView view = new RouterView(loop, nodes, policy);
        HealthPipeline health = new HealthPipeline(loop, nodes, view, policy.thresholds(), seed);
        health.start();
        faults.schedule(loop, byId);
        Outcome[] outcomes = new Outcome[requests.size()];
        Outcome[] retries = new Outcome[requests.size()];
        List<Attempt> attempts = new ArrayList<>();
        int[] open = {requests.size()};
        for (SimRequest request : requests) {
            loop.at(request.arrival(), () -> new Flight(request, routing, view, loop, outcomes, retries, attempts,
                    open, false).start());
        }
        loop.run(() -> open[0] == 0);
        health.stop();
        double[] utilisation = nodes.stream().mapToDouble(SimNode::utilisation).toArray();
        Map<String, Integer> fallbacks = routing instanceof ZeroLayerPolicy z ? z.fallbacks() : Map.of();
        return new Result(routing.name(), List.of(outcomes), nodes.stream().map(SimNode::id).toList(),
                nodes.stream().map(n -> n.member().tier()).toList(), utilisation, attempts, fallbacks,
                loop.executed(), health.published(), horizon,
                java.util.Collections.unmodifiableList(java.util.Arrays.asList(retries)), routing.predictionError());
    }

    /** One request on its way: its route, the attempt in progress and its time limits. */
    private final class Flight implements SimNode.Listener {
        private final SimRequest request;
        private final RoutingPolicy routing;
        private final RouterView view;
        private final EventLoop loop;
        private final Outcome[] outcomes;
        private final Outcome[] retries;
        private final List<Attempt> attempts;
        private final int[] open;
        private final boolean retry;
        private double start;
        private RoutingPolicy.Route route;
        private double deadline;
        private int index = -1;
        private int node = -1;
        private SimNode.Job job;
        private long attemptVersion;
        private boolean settled;
        private String servedTier;
        private String servedNode;
        private double ttft = Double.NaN;
        private int cached;
        private int made;
        private Object ticket;
        private double sentAt;

        Flight(SimRequest request, RoutingPolicy routing, RouterView view, EventLoop loop, Outcome[] outcomes,
                Outcome[] retries, List<Attempt> attempts, int[] open, boolean retry) {
            this.request = request;
            this.routing = routing;
            this.view = view;
            this.loop = loop;
            this.outcomes = outcomes;
            this.retries = retries;
            this.attempts = attempts;
            this.open = open;
            this.retry = retry;
        }

        void start() {
            start = loop.now();
            route = routing.route(request, view);
            deadline = start + limits(route.tier()).deadlineMs() / 1000.0;
            if (route.ranked().isEmpty()) {
                finish(Outcome.Status.NO_NODE, "no_node");
                return;
            }
            next(Outcome.Status.NO_NODE, "no_node");
        }

        /** Tries the next ranked node, or settles with the last failure when none is left or the deadline passed. */
        private void next(Outcome.Status lastStatus, String lastReason) {
            index++;
            double now = loop.now();
            if (index >= route.ranked().size() || (index > 0 && !routing.bypass())) {
                finish(lastStatus, lastReason);
                return;
            }
            if (now >= deadline) {
                finish(Outcome.Status.TIMEOUT, "deadline");
                return;
            }
            node = route.ranked().get(index);
            if (routing.breakers() && !view.breaker(node).tryAcquire(now)) {
                next(Outcome.Status.ERROR, "circuit_open");
                return;
            }
            attempts.add(new Attempt(node, now));
            made++;
            ticket = routing.attemptStarted(request, node, view);
            sentAt = now;
            view.attemptStarted(node);
            SimNode target = view.nodes().get(node);
            double limit = Math.min(limits(target.member().tier()).ttfbLimitMs() / 1000.0, deadline - now);
            long version = ++attemptVersion;
            job = new SimNode.Job(request, this);
            target.submit(job);
            loop.after(limit, () -> timeout(version));
        }

        private void timeout(long version) {
            if (version != attemptVersion || settled || job == null || job.firstTokenSent) {
                return;
            }
            SimNode.Job abandoned = job;
            job = null;
            view.nodes().get(node).cancel(abandoned);
            endAttempt(false);
            next(Outcome.Status.TIMEOUT, loop.now() >= deadline ? "deadline" : "ttfb_timeout");
        }

        @Override
        public void firstToken(SimNode.Job j, double at) {
            if (j != job) {
                return;
            }
            ttft = at - start;
            routing.firstByte(ticket, at - sentAt);
            cached = j.cachedTokens();
            SimNode target = view.nodes().get(node);
            servedTier = target.member().tier();
            servedNode = target.id();
            if (routing.breakers()) {
                view.breaker(node).onSuccess(at);
            }
        }

        @Override
        public void completed(SimNode.Job j, double at) {
            if (j != job) {
                return;
            }
            job = null;
            view.attemptEnded(node);
            finish(Outcome.Status.OK, null);
        }

        @Override
        public void failed(SimNode.Job j, double at, String reason, boolean afterFirstToken) {
            if (j != job) {
                return;
            }
            job = null;
            if (afterFirstToken) {
                view.attemptEnded(node);
                if (routing.breakers()) {
                    view.breaker(node).onError(at);
                }
                finish(Outcome.Status.CUT, reason);
                return;
            }
            endAttempt(false);
            attemptVersion++;
            next(Outcome.Status.ERROR, reason);
        }

        private void endAttempt(boolean ok) {
            routing.attemptAbandoned(ticket);
            view.attemptEnded(node);
            if (routing.breakers()) {
                if (ok) {
                    view.breaker(node).onSuccess(loop.now());
                } else {
                    view.breaker(node).onError(loop.now());
                }
            }
        }

        private void finish(Outcome.Status status, String reason) {
            if (settled) {
                return;
            }
            settled = true;
            Outcome outcome = new Outcome(request.id(), start, status, route.tier(), servedTier, servedNode, ttft,
                    request.contextTokens(), cached, request.generatedTokens(), made, reason, loop.now());
            if (retry) {
                retries[request.id()] = outcome;
            } else {
                outcomes[request.id()] = outcome;
                if (outcome.retryable()) {
                    open[0]++;
                    loop.after(RETRY_BACKOFF, () -> new Flight(request, routing, view, loop, outcomes, retries,
                            attempts, open, true).start());
                }
            }
            open[0]--;
        }

        private TierLimits limits(String tier) {
            TierLimits limits = policy.limits().get(tier);
            if (limits == null) {
                throw new IllegalStateException("no limits for tier " + tier);
            }
            return limits;
        }
    }
}
