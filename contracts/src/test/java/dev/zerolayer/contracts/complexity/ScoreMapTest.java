package dev.zerolayer.contracts.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.zerolayer.contracts.event.InvalidEventException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A score map interpolates between its knots, keeps order, and refuses knots that are not a monotone map of [0,1]. */
class ScoreMapTest {

    private final ComplexityModel.ScoreMap map = new ComplexityModel.ScoreMap(List.of(0.0, 0.2, 0.5, 1.0),
            List.of(0.0, 0.1, 0.7, 1.0));

    @Test
    void interpolatesBetweenKnotsAndHitsThemExactly() {
        assertThat(map.apply(0)).isZero();
        assertThat(map.apply(0.2)).isCloseTo(0.1, within(1e-12));
        assertThat(map.apply(0.35)).isCloseTo(0.4, within(1e-12));
        assertThat(map.apply(0.75)).isCloseTo(0.85, within(1e-12));
        assertThat(map.apply(1)).isEqualTo(1.0);
    }

    @Test
    void keepsTheOrderOfItsInputs() {
        double previous = -1;
        for (int i = 0; i <= 1000; i++) {
            double y = map.apply(i / 1000.0);
            assertThat(y).isGreaterThanOrEqualTo(previous);
            previous = y;
        }
    }

    @Test
    void refusesKnotsThatAreNotAMonotoneMapOfTheUnitInterval() {
        assertRefused(List.of(0.0, 1.0), List.of(0.0), "same number of knots");
        assertRefused(List.of(0.0, 0.5, 0.5, 1.0), List.of(0.0, 0.1, 0.2, 1.0), "rise strictly");
        assertRefused(List.of(0.0, 0.5, 1.0), List.of(0.0, 0.6, 0.5), "never fall");
        assertRefused(List.of(0.1, 0.5, 1.0), List.of(0.0, 0.6, 0.9), "start at 0 and end at 1");
        assertRefused(List.of(0.0, 0.5, 1.0), List.of(0.0, 1.5, 2.0), "within [0,1]");
        assertRefused(List.of(0.0, Double.NaN, 1.0), List.of(0.0, 0.5, 1.0), "within [0,1]");
    }

    private static void assertRefused(List<Double> from, List<Double> to, String reason) {
        assertThatThrownBy(() -> new ComplexityModel.ScoreMap(from, to)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining(reason);
    }
}
