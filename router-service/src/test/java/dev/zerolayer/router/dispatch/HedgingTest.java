package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.Hedge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The hedge delay is the node's learned p95 time to first byte for prompts of that size (none before enough are
 * known, the policy's own when it names one), and hedges stay within the tier's share of its requests.
 */
class HedgingTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Hedging hedging = new Hedging(meters);

    @Test
    void theDelayIsTheNodesP95ForThePromptSizeOnceEnoughIsKnown() {
        Hedge learned = Hedge.learned();
        for (int ms = 1; ms < Hedging.MIN_SAMPLES; ms++) {
            hedging.observe("a", 300, ms * 1_000_000L);
        }
        assertThat(hedging.delayNanos(learned, "a", 300)).as("too few known").isEqualTo(-1);

        hedging.observe("a", 300, 20_000_000L);

        assertThat(hedging.delayNanos(learned, "a", 300)).isEqualTo(19_000_000L);
        // a prompt of about the same size (same power of two) shares it; a much longer one, another node do not
        assertThat(hedging.delayNanos(learned, "a", 500)).isEqualTo(19_000_000L);
        assertThat(hedging.delayNanos(learned, "a", 5_000)).isEqualTo(-1);
        assertThat(hedging.delayNanos(learned, "b", 300)).isEqualTo(-1);
        // the policy's own delay wins; off is off
        assertThat(hedging.delayNanos(new Hedge(true, 250L, null), "b", 300)).isEqualTo(250_000_000L);
        assertThat(hedging.delayNanos(Hedge.off(), "a", 300)).isEqualTo(-1);
    }

    @Test
    void onlyTheOldestTimesGiveWayToNewOnes() {
        for (int i = 0; i < Hedging.SAMPLES; i++) {
            hedging.observe("a", 100, 1_000_000_000L);
        }
        for (int i = 0; i < Hedging.SAMPLES; i++) {
            hedging.observe("a", 100, 5_000_000L);
        }

        assertThat(hedging.delayNanos(Hedge.learned(), "a", 100)).isEqualTo(5_000_000L);
    }

    @Test
    void hedgesStayWithinTheTiersShareOfItsRequests() {
        Hedge fivePercent = new Hedge(true, 10L, 5.0);
        int hedges = 0;
        for (int i = 0; i < 1_000; i++) {
            hedging.request("opus", fivePercent);
            hedges += hedging.tryHedge("opus") ? 1 : 0;
        }

        // one saved at the start, then one per twenty requests
        assertThat(hedges).isBetween(50, 51);
        assertThat(hedging.tryHedge("haiku")).as("a tier starts with one").isTrue();
        assertThat(hedging.tryHedge("haiku")).isFalse();
        hedging.outcome("opus", "won");
        assertThat(meters.get("zerolayer_hedges").tag("tier", "opus").tag("outcome", "won").counter().count())
                .isEqualTo(1.0);
    }
}
