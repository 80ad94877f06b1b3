package dev.zerolayer.routing.decision;

import dev.zerolayer.contracts.fallback.Scoring;
import dev.zerolayer.contracts.router.ScoreTerms;
import java.util.ArrayList;
import java.util.List;

/**
 * One policy's node scoring resolved against the plugins: the admission filters (a node they exclude is not part of the
 * request's fleet at all), its filters in the policy's order, the scorers it weighs
 * (in registration order) with their weights, and its picker. Scores a cluster's nodes into arrays aligned with the
 * scorers, so the hot path builds no per-node maps.
 */
public final class NodePipeline {

    private static final double[] NO_TERMS = new double[0];

    private final Scoring scoring;
    private final NodeFilter[] admission;
    private final NodeFilter[] filters;
    private final NodeScorer[] scorers;
    private final double[] weights;
    private final ScoreTerms.Names names;
    private final Picker picker;
    private final boolean anySoft;

    NodePipeline(Scoring scoring, List<NodeFilter> admission, List<NodeFilter> filters, List<NodeScorer> scorers,
            Picker picker) {
        this.scoring = scoring;
        this.admission = admission.toArray(NodeFilter[]::new);
        this.filters = filters.toArray(NodeFilter[]::new);
        this.scorers = scorers.toArray(NodeScorer[]::new);
        this.weights = new double[this.scorers.length];
        String[] names = new String[this.scorers.length];
        for (int i = 0; i < this.scorers.length; i++) {
            weights[i] = scoring.weight(this.scorers[i].name());
            names[i] = this.scorers[i].name();
        }
        this.names = ScoreTerms.keys(names);
        this.picker = picker;
        boolean soft = false;
        for (NodeFilter filter : this.filters) {
            soft |= filter.soft();
        }
        this.anySoft = soft;
    }

    public Scoring scoring() {
        return scoring;
    }

    String scorerName(int i) {
        return scorers[i].name();
    }

    /** The scorers' names in term order, the keys of every candidate's terms. */
    ScoreTerms.Names termNames() {
        return names;
    }

    double weight(int i) {
        return weights[i];
    }

    /** The scorers that run, in term order. */
    public List<String> scorerNames() {
        List<String> names = new ArrayList<>(scorers.length);
        for (NodeScorer scorer : scorers) {
            names.add(scorer.name());
        }
        return names;
    }

    /** The nodes no admission filter excludes: the fleet itself when none is excluded. */
    List<NodeCandidate> admitted(List<NodeCandidate> fleet, DecisionInput input) {
        List<NodeCandidate> admitted = null;
        for (int i = 0; i < fleet.size(); i++) {
            NodeCandidate node = fleet.get(i);
            boolean in = true;
            for (NodeFilter filter : admission) {
                if (filter.exclude(node, input) != null) {
                    in = false;
                    break;
                }
            }
            if (!in && admitted == null) {
                admitted = new ArrayList<>(fleet.subList(0, i));
            } else if (in && admitted != null) {
                admitted.add(node);
            }
        }
        return admitted == null ? fleet : admitted;
    }

    /** The first hard filter's reason to exclude the node, or null (soft filters do not bar a node). */
    String excluded(NodeCandidate node, DecisionInput input) {
        for (NodeFilter filter : filters) {
            if (filter.soft()) {
                continue;
            }
            String reason = filter.exclude(node, input, scoring);
            if (reason != null) {
                return reason;
            }
        }
        return null;
    }

    /** The first soft filter's reason to pass the node over, or null. */
    private String passedOver(NodeCandidate node, DecisionInput input) {
        if (!anySoft) {
            return null;
        }
        for (NodeFilter filter : filters) {
            if (filter.soft()) {
                String reason = filter.exclude(node, input, scoring);
                if (reason != null) {
                    return reason;
                }
            }
        }
        return null;
    }

    /**
     * Every node of the cluster, filtered and scored, in the picker's order; soft filters' exclusions stand only when
     * a node of the cluster passes every filter.
     */
    List<ScoredCandidate> score(String cluster, String tier, DecisionInput input, List<NodeCandidate> fleet) {
        boolean softHolds = false;
        if (anySoft) {
            for (NodeCandidate node : fleet) {
                if (node.cluster().equals(cluster) && excluded(node, input) == null
                        && passedOver(node, input) == null) {
                    softHolds = true;
                    break;
                }
            }
        }
        List<ScoredCandidate> scored = new ArrayList<>();
        for (NodeCandidate node : fleet) {
            if (!node.cluster().equals(cluster)) {
                continue;
            }
            String excluded = excluded(node, input);
            if (excluded == null && softHolds) {
                excluded = passedOver(node, input);
            }
            if (excluded != null) {
                scored.add(new ScoredCandidate(node.nodeId(), tier, cluster, excluded, 0.0, NO_TERMS, node.breakerOpen(),
                        this));
                continue;
            }
            double[] raw = new double[scorers.length];
            double score = 0;
            for (int i = 0; i < scorers.length; i++) {
                double term = scorers[i].score(node, input, scoring);
                // a term outside [0,1] (or NaN) from a scorer is held to the range: one plugin cannot outweigh the rest
                term = term >= 0 ? Math.min(1.0, term) : 0.0;
                raw[i] = term;
                score += term * weights[i];
            }
            scored.add(new ScoredCandidate(node.nodeId(), tier, cluster, null, score, raw, node.breakerOpen(), this));
        }
        picker.order(scored);
        return scored;
    }
}
