package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetSizingTest {

    static SimRequest request(int id, double arrival, int context, int generated, double complexity, boolean copy) {
        return new SimRequest(id, "conv", arrival, context, generated, complexity, 0, 0,
                new long[context / SimRequest.BLOCK_TOKENS], copy);
    }

    @Test
    void workIsAWholeNodePrefillPlusAShareOfAFullBatchDecode() {
        NodeProfile p = NodeProfile.A100_80G_X8;
        double expected = p.firstTokenOverheadSeconds() + 5818.0 / p.prefillTokensPerSecond()
                + 100 * p.interTokenSeconds(p.capacity()) / p.capacity();
        assertThat(FleetSizing.work(p, 5818, 100)).isCloseTo(expected, within(1e-12));
    }

    @Test
    void eachTierGetsTheFewestNodesKeepingMeanOfferedWorkAtMostSixtyPercent() {
        List<SimRequest> requests = new ArrayList<>();
        // 100 s of opus traffic (3,000 tokens > 2,048): three per second, each ~0.58 s of node time
        for (int i = 0; i < 300; i++) {
            requests.add(request(requests.size(), (i + 1) / 3.0, 3000, 20, 0.5, false));
        }
        // spike copies do not count
        for (int i = 0; i < 100; i++) {
            requests.add(request(requests.size(), 50, 3000, 20, 0.5, true));
        }
        requests.add(request(requests.size(), 100, 100, 5, 0.1, false)); // one haiku request
        FleetSizing.Sizing sizing = FleetSizing.size(requests, PolicyDocument.defaults());
        FleetSizing.Tier opus = sizing.tiers().stream().filter(t -> t.tier().equals("opus")).findFirst().orElseThrow();
        double perSecond = 300 * FleetSizing.work(NodeProfile.A100_80G_X8, 3000, 20) / 100.0;
        assertThat(opus.requests()).isEqualTo(300);
        assertThat(opus.offeredNodeSeconds()).isCloseTo(perSecond, within(1e-9));
        assertThat(opus.nodes()).isEqualTo((int) Math.ceil(perSecond / 0.6)).isEqualTo(3);
        assertThat(opus.load()).isLessThanOrEqualTo(0.6);
        assertThat(sizing.fleet().primaryCount("haiku")).as("at least two nodes per tier").isEqualTo(2);
        assertThat(sizing.fleet().primaryCount("opus")).isEqualTo(opus.nodes());
        assertThat(sizing.fleet().members()).filteredOn(m -> m.cluster().equals("sonnet-standby")).hasSize(1);
    }
}
