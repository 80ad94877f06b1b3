package dev.zerolayer.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.platform.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A fault is active until its end; one per type, the newest wins; wire names round-trip. */
class FaultBoardTest {

    @Test
    void faultsExpireAtTheirEndAndTheNewestOfATypeWins() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        FaultBoard board = new FaultBoard(clock);
        Instant start = clock.instant();
        board.put(new ActiveFault(FaultType.ERRORS, 0.5, start, start.plusSeconds(10)));
        board.put(new ActiveFault(FaultType.ERRORS, 0.2, start, start.plusSeconds(5)));
        board.put(new ActiveFault(FaultType.CRASH, 1.0, start, start.plusSeconds(20)));

        assertThat(board.intensity(FaultType.ERRORS)).isEqualTo(0.2);
        clock.advance(Duration.ofSeconds(6));
        assertThat(board.isActive(FaultType.ERRORS)).isFalse();
        assertThat(board.list()).extracting(ActiveFault::type).containsExactly(FaultType.CRASH);
        assertThat(board.clear()).hasSize(1);
        assertThat(board.list()).isEmpty();
    }

    @Test
    void wireNamesRoundTripAndIntensityIsAUnitValue() {
        for (FaultType type : FaultType.values()) {
            assertThat(FaultType.fromWireName(type.wireName())).contains(type);
        }
        assertThat(FaultType.fromWireName("cuda_graph_warmup")).contains(FaultType.CUDA_GRAPH_WARMUP);
        assertThat(FaultType.fromWireName("meltdown")).isEmpty();
        Instant now = Instant.now();
        assertThatThrownBy(() -> new ActiveFault(FaultType.ERRORS, 1.5, now, now.plusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
