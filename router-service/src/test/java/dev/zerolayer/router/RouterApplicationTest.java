package dev.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One event loop per core by default; an operator's own {@code reactor.netty.ioWorkerCount} is kept. */
class RouterApplicationTest {

    private final String before = System.getProperty(RouterApplication.IO_WORKER_COUNT);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(RouterApplication.IO_WORKER_COUNT);
        } else {
            System.setProperty(RouterApplication.IO_WORKER_COUNT, before);
        }
    }

    @Test
    void withoutASettingThereIsOneEventLoopPerCore() {
        System.clearProperty(RouterApplication.IO_WORKER_COUNT);

        RouterApplication.oneEventLoopPerCore();

        assertThat(System.getProperty(RouterApplication.IO_WORKER_COUNT))
                .isEqualTo(Integer.toString(Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void anOperatorsSettingIsKept() {
        System.setProperty(RouterApplication.IO_WORKER_COUNT, "7");

        RouterApplication.oneEventLoopPerCore();

        assertThat(System.getProperty(RouterApplication.IO_WORKER_COUNT)).isEqualTo("7");
    }
}
