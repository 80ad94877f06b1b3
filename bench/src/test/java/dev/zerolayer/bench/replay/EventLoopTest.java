package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLoopTest {

    @Test
    void runsInTimeOrderThenInScheduleOrder() {
        EventLoop loop = new EventLoop(0);
        List<String> seen = new ArrayList<>();
        loop.at(2, () -> seen.add("b@2"));
        loop.at(1, () -> seen.add("a@1"));
        loop.at(2, () -> seen.add("c@2"));
        loop.at(1, () -> loop.after(0.5, () -> seen.add("d@1.5:" + loop.now())));
        loop.run();
        assertThat(seen).containsExactly("a@1", "d@1.5:1.5", "b@2", "c@2");
        assertThat(loop.now()).isEqualTo(2.0);
        assertThat(loop.executed()).isEqualTo(5);
    }

    @Test
    void aPastTimeRunsNowAndTimeNeverGoesBack() {
        EventLoop loop = new EventLoop(0);
        List<Double> times = new ArrayList<>();
        loop.at(5, () -> loop.at(1, () -> times.add(loop.now())));
        loop.run();
        assertThat(times).containsExactly(5.0);
        assertThatThrownBy(() -> loop.at(Double.NaN, () -> { })).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stopsWhenTheConditionHolds() {
        EventLoop loop = new EventLoop(0);
        int[] count = {0};
        Runnable[] tick = new Runnable[1];
        tick[0] = () -> {
            count[0]++;
            loop.after(1, tick[0]);
        };
        loop.at(0, tick[0]);
        loop.run(() -> count[0] >= 10);
        assertThat(count[0]).isEqualTo(10);
        assertThat(loop.pending()).isEqualTo(1);
    }
}
