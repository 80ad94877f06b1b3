package dev.zerolayer.simulator.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The latency model follows its profile (prefill of uncached tokens, batch-slowed decode) and is zero when off. */
class LatencyModelTest {

    @Test
    void timeToFirstTokenGrowsWithUncachedTokensAtTheProfilesPrefillRate() {
        LatencyModel model = new LatencyModel(HardwareProfiles.A100_80G_X8, true);

        // 2048 vs 128 tokens reproduce the TensorRT-LLM figures the opus profile is built from (377 vs 47 ms)
        assertThat(model.prefillNanos(128) / 1e6).isCloseTo(47.0, within(1.0));
        assertThat(model.prefillNanos(2048) / 1e6).isCloseTo(377.0, within(1.0));
        assertThat(model.prefillNanos(4000)).isGreaterThan(model.prefillNanos(0));
    }

    @Test
    void decodeSlowsWithTheBatchAsMeasuredAtEightStreams() {
        LatencyModel model = new LatencyModel(HardwareProfiles.A100_40G_X4, true);

        // one stream: 1 / 46 tokens per second; eight streams ran at 6.6x one stream's throughput
        assertThat(model.interTokenNanos(1) / 1e6).isCloseTo(1000 / 46.15, within(0.1));
        assertThat(model.interTokenNanos(8) / (double) model.interTokenNanos(1)).isCloseTo(8 / 6.6, within(0.001));
        assertThat(model.interTokenNanos(16)).isGreaterThan(model.interTokenNanos(8));
    }

    @Test
    void switchedOffEveryDelayIsZero() {
        LatencyModel off = new LatencyModel(HardwareProfiles.L4_X2, false);

        assertThat(off.prefillNanos(100_000)).isZero();
        assertThat(off.interTokenNanos(64)).isZero();
        assertThat(off.warmupNanos()).isZero();
        assertThat(new LatencyModel(HardwareProfiles.L4_X2, true).warmupNanos()).isPositive();
    }

    @Test
    void profilesAreFoundByNameAndDeriveTheirKvCapacityFromMemory() {
        assertThat(HardwareProfiles.named("A100-80G×8")).isSameAs(HardwareProfiles.A100_80G_X8);
        assertThat(HardwareProfiles.named("l4x2")).isSameAs(HardwareProfiles.L4_X2);
        assertThatThrownBy(() -> HardwareProfiles.named("H100x8")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A100-40Gx4");

        // opus: 8 x 80 GiB x 0.9 minus 140 GB of weights, 5 MiB per 16-token block of Llama-2-70B (GQA, FP16)
        assertThat(HardwareProfiles.A100_80G_X8.kvBlocks()).isEqualTo(91_262);
        assertThat(HardwareProfiles.A100_80G_X8.kvBlockBytes()).isEqualTo(5L * 1024 * 1024);
        assertThat(HardwareProfiles.L4_X2.nvlinkCapacityBytesPerSecond()).isZero();
        assertThat(HardwareProfiles.L4_X2.decodeTokensPerSecond()).isGreaterThan(
                HardwareProfiles.A100_80G_X8.decodeTokensPerSecond());
    }

    @Test
    void outputLengthsHaveTheConfiguredMedianAndStopAtTheLimit() {
        OutputLength lengths = new OutputLength(200, 0.86);
        SplittableRandom random = new SplittableRandom(1);

        int[] draws = new int[4001];
        for (int i = 0; i < draws.length; i++) {
            OutputLength.Draw draw = lengths.draw(random, 1_000_000);
            assertThat(draw.capped()).isFalse();
            draws[i] = draw.tokens();
        }
        Arrays.sort(draws);
        assertThat(draws[draws.length / 2]).isBetween(185, 215);

        OutputLength.Draw capped = lengths.draw(new SplittableRandom(2), 3);
        assertThat(capped.tokens()).isEqualTo(3);
        assertThat(capped.capped()).isTrue();
    }
}
