package dev.zerolayer.router.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

/** A loop thread is told its own index and gets its own loop for timers; any other thread gets -1 and the parallel one. */
class EventLoopsTest {

    private final LoopResources resources = LoopResources.create("event-loops-test", 2, true);

    @AfterEach
    void stop() {
        resources.disposeLater().block(Duration.ofSeconds(10));
    }

    @Test
    void eachLoopKnowsItsIndexAndItsTimersFireOnIt() {
        EventLoops loops = new EventLoops(resources);
        List<EventExecutor> executors = new ArrayList<>();
        resources.onServer(true).forEach(executors::add);
        assertThat(loops.size()).isEqualTo(2);

        for (int i = 0; i < executors.size(); i++) {
            EventExecutor executor = executors.get(i);
            // When a timer is set from loop i
            String[] setOn = new String[1];
            int[] index = new int[1];
            String firedOn = Mono.defer(() -> {
                        setOn[0] = Thread.currentThread().getName();
                        index[0] = loops.current();
                        return Mono.delay(Duration.ofMillis(5), loops.timers());
                    })
                    .map(tick -> Thread.currentThread().getName())
                    .subscribeOn(Schedulers.fromExecutor(executor))
                    .block(Duration.ofSeconds(10));

            // Then the thread knew it was loop i, and the timer fired on that same thread
            assertThat(index[0]).isEqualTo(i);
            assertThat(firedOn).isEqualTo(setOn[0]);
        }
    }

    @Test
    void aThreadOffTheLoopsIsNoneOfThemAndGetsTheParallelScheduler() {
        EventLoops loops = new EventLoops(resources);

        assertThat(loops.current()).isEqualTo(-1);
        assertThat(loops.timers()).isSameAs(Schedulers.parallel());
        assertThat(EventLoops.none().size()).isZero();
        assertThat(EventLoops.none().timers()).isSameAs(Schedulers.parallel());
    }
}
