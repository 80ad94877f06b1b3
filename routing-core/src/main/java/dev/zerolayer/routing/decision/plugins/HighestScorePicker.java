package dev.zerolayer.routing.decision.plugins;

import dev.zerolayer.routing.decision.Picker;
import dev.zerolayer.routing.decision.ScoredCandidate;
import java.util.Comparator;
import java.util.List;

/** Eligible nodes first, then the highest score, then the node id (so equal scores order the same way every time). */
public final class HighestScorePicker implements Picker {

    private static final Comparator<ScoredCandidate> RANKING = Comparator.comparing(ScoredCandidate::eligible)
            .reversed().thenComparing(Comparator.comparingDouble(ScoredCandidate::score).reversed())
            .thenComparing(ScoredCandidate::nodeId);

    @Override
    public String name() {
        return "highest_score";
    }

    @Override
    public void order(List<ScoredCandidate> scored) {
        scored.sort(RANKING);
    }
}
