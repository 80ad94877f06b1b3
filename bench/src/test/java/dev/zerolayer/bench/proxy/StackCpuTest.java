package dev.zerolayer.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.bench.proxy.RouterProfileRun.ThreadCounters;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackCpuTest {

    @Test
    void eachProcessIsChargedItsThreadsTicksPerRequestBusiestFirst() {
        // Given two processes read before and after a window of 1,000 requests in 1 s (100 ticks a second)
        StackCpu.Snapshot before = new StackCpu.Snapshot(Map.of(1L, "router-service", 2L, "node-simulator"), Map.of(
                1L, Map.of(10, new ThreadCounters("webflux-http-epoll-1", 100, 0, 0),
                        11, new ThreadCounters("webflux-http-epoll-2", 50, 0, 0)),
                2L, Map.of(20, new ThreadCounters("sim-node-epoll-1", 10, 0, 0))));
        StackCpu.Snapshot after = new StackCpu.Snapshot(before.names(), Map.of(
                1L, Map.of(10, new ThreadCounters("webflux-http-epoll-1", 120, 0, 0),
                        11, new ThreadCounters("webflux-http-epoll-2", 70, 0, 0),
                        12, new ThreadCounters("decision-publisher", 2, 0, 0)),
                2L, Map.of(20, new ThreadCounters("sim-node-epoll-1", 30, 0, 0))));

        // When the table is drawn
        String table = StackCpu.table(before, after, 1000, 1.0, 2);

        // Then the router's 42 ticks are 420 µs a request (its epoll threads one group, a new thread from zero),
        // the node's 20 are 200, the router first and the sum 620 µs, 31 % of two cores
        assertThat(table).contains("**620 µs of CPU per request**", "31 % of the machine's 2 cores",
                "| router-service | 420 | 42.0 | webflux-http-epoll-# 400, decision-publisher 20 |",
                "| node-simulator | 200 | 20.0 | sim-node-epoll-# 200 |");
        assertThat(table.indexOf("router-service")).isLessThan(table.indexOf("node-simulator"));
    }
}
