package dev.zerolayer.routing.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A location loads once, in the background; until then and after a failure the answer is empty, never a wait. */
class ServedModelsTest {

    private final List<Runnable> queued = new ArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000);
    private final AtomicInteger loads = new AtomicInteger();

    private void runQueued() {
        List<Runnable> tasks = new ArrayList<>(queued);
        queued.clear();
        tasks.forEach(Runnable::run);
    }

    @Test
    void aLocationIsLoadedOnceInTheBackgroundAndSharedOnceReady() {
        ServedModels<String> models = new ServedModels<>(location -> "model@" + location + "#" + loads.incrementAndGet(),
                queued::add, now::get, 60_000);

        assertThat(models.ready("a")).isEmpty();
        assertThat(models.ready("a")).isEmpty();
        assertThat(queued).hasSize(1);
        assertThat(models.state("a")).isInstanceOf(ServedModels.Loading.class);
        runQueued();

        assertThat(models.ready("a")).contains("model@a#1");
        assertThat(models.ready("a")).contains("model@a#1");
        assertThat(models.ready("b")).isEmpty();
        runQueued();
        assertThat(models.ready("b")).contains("model@b#2");
        assertThat(loads).hasValue(2);
    }

    @Test
    void aFailedLoadIsReportedAndRetriedOnlyAfterTheDelay() {
        ServedModels<String> models = new ServedModels<>(location -> {
            if (loads.incrementAndGet() == 1) {
                throw new IOException("no such directory");
            }
            return "ok";
        }, queued::add, now::get, 60_000);

        models.ready("x");
        runQueued();
        assertThat(models.state("x")).isInstanceOfSatisfying(ServedModels.Failed.class,
                failed -> assertThat(failed.reason()).contains("no such directory"));
        now.addAndGet(59_999);
        assertThat(models.ready("x")).isEmpty();
        assertThat(queued).isEmpty();

        now.addAndGet(1);
        assertThat(models.ready("x")).isEmpty();
        runQueued();
        assertThat(models.ready("x")).contains("ok");
    }

    @Test
    void aLocationNoNodeNamesIsDroppedAndItsModelClosedOnlyAfterTheGracePeriod() {
        List<String> closed = new ArrayList<>();
        ServedModels<AutoCloseable> models = new ServedModels<>(location -> () -> closed.add(location), queued::add,
                now::get, 60_000);
        models.ready("old");
        models.ready("new");
        runQueued();
        assertThat(models.states()).containsOnlyKeys("new", "old");

        assertThat(models.retain(java.util.Set.of("new"))).isEqualTo(1);
        assertThat(models.states()).containsOnlyKeys("new");
        assertThat(closed).as("a request may still hold it").isEmpty();
        now.addAndGet(59_999);
        models.retain(java.util.Set.of("new"));
        assertThat(closed).isEmpty();
        now.addAndGet(1);
        assertThat(models.retain(java.util.Set.of("new"))).isZero();

        assertThat(closed).containsExactly("old");
        assertThat(models.ready("new")).isPresent();
        assertThat(models.ready("old")).as("named again: loaded afresh").isEmpty();
    }
}
