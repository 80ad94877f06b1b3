package dev.zerolayer.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimNodeTest {

    static final NodeProfile PROFILE = NodeProfile.A100_40G_X4;

    /** Records what the node reports. */
    static final class Log implements SimNode.Listener {
        final List<String> events = new ArrayList<>();
        final List<Double> firstTokens = new ArrayList<>();
        final List<Double> completions = new ArrayList<>();

        @Override
        public void firstToken(SimNode.Job job, double at) {
            firstTokens.add(at);
            events.add("first:" + job.request().id());
        }

        @Override
        public void completed(SimNode.Job job, double at) {
            completions.add(at);
            events.add("done:" + job.request().id());
        }

        @Override
        public void failed(SimNode.Job job, double at, String reason, boolean afterFirstToken) {
            events.add("failed:" + job.request().id() + ":" + reason + ":" + afterFirstToken);
        }
    }

    static SimRequest request(int id, int context, int generated, long... blocks) {
        return new SimRequest(id, "conv", 0, context, generated, 0.5, 0, 0, blocks, false);
    }

    static SimNode node(EventLoop loop, double horizon) {
        return new SimNode(loop, new FleetSpec.Member("n", "sonnet", "c", PROFILE), 0, horizon);
    }

    @Test
    void timeToFirstTokenIsOverheadPlusUncachedPrefillAndACachedPrefixIsFree() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 100);
        Log log = new Log();
        node.submit(new SimNode.Job(request(0, 1600, 1, 1, 2, 3, 4), log));
        loop.run();
        assertThat(log.firstTokens.get(0)).isCloseTo(0.008 + 1600 / PROFILE.prefillTokensPerSecond(), within(1e-9));
        loop.at(10, () -> node.submit(new SimNode.Job(request(1, 1600, 1, 1, 2, 3, 9), log)));
        loop.run();
        assertThat(log.firstTokens.get(1) - 10).isCloseTo(0.008 + (1600 - 48) / PROFILE.prefillTokensPerSecond(),
                within(1e-9));
    }

    @Test
    void decodeSlowsWithTheBatchAndPrefillsRunOneAtATime() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 100);
        Log log = new Log();
        node.submit(new SimNode.Job(request(0, 0, 11), log));
        loop.run();
        double alone = log.completions.get(0) - log.firstTokens.get(0);
        assertThat(alone).isCloseTo(10 * PROFILE.interTokenSeconds(1), within(1e-9));
        loop.at(20, () -> {
            node.submit(new SimNode.Job(request(1, 0, 11), log));
            node.submit(new SimNode.Job(request(2, 0, 11), log));
        });
        loop.run();
        assertThat(log.firstTokens.get(2) - log.firstTokens.get(1)).as("second prefill waits for the first")
                .isCloseTo(PROFILE.prefillSeconds(0), within(1e-9));
        assertThat(log.completions.get(2) - log.firstTokens.get(2)).as("two running: slower tokens")
                .isGreaterThan(alone);
    }

    @Test
    void requestsBeyondCapacityWaitAndCountAsWaiting() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 100);
        Log log = new Log();
        for (int i = 0; i < PROFILE.capacity() + 3; i++) {
            node.submit(new SimNode.Job(request(i, 16, 1000), log));
        }
        loop.run(() -> loop.now() > 1.0);
        assertThat(node.running()).isEqualTo(PROFILE.capacity());
        assertThat(node.waiting()).isEqualTo(3);
        assertThat(node.busyShare()).isEqualTo(1.0);
    }

    @Test
    void aCrashFailsEveryRequestRefusesNewOnesAndARestartWarmsUpCold() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 100);
        Log log = new Log();
        node.submit(new SimNode.Job(request(0, 16, 1000, 5), log));
        node.submit(new SimNode.Job(request(1, 16000, 10), log));
        loop.at(1, node::crash);
        loop.at(2, () -> node.submit(new SimNode.Job(request(2, 16, 2), log)));
        loop.at(3, () -> node.restart(5));
        loop.at(4, () -> node.submit(new SimNode.Job(request(3, 16, 1, 5), log)));
        loop.run();
        assertThat(log.events.subList(1, 3)).as("both fail at the crash")
                .containsExactlyInAnyOrder("failed:0:stream_cut:true", "failed:1:connection_reset:false");
        assertThat(log.events).containsSubsequence("first:0", "failed:2:connection_refused:false", "first:3");
        assertThat(log.firstTokens.get(1)).as("served after the warm-up ends at 8 s").isGreaterThan(8.0);
        assertThat(node.cachedBlocks()).as("cache was lost: only request 3's block").isEqualTo(1);
    }

    @Test
    void cancellingFreesTheRequestAndSmSaturationSlowsPrefill() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 100);
        Log log = new Log();
        SimNode.Job job = new SimNode.Job(request(0, 8000, 5), log);
        node.submit(job);
        loop.at(0.1, () -> node.cancel(job));
        loop.run();
        assertThat(log.events).isEmpty();
        assertThat(node.running()).isZero();
        loop.at(1, () -> {
            node.smSaturation(true, 5);
            node.submit(new SimNode.Job(request(1, 1600, 1), log));
        });
        loop.run();
        assertThat(log.firstTokens.get(0) - 1).isCloseTo(5 * PROFILE.prefillSeconds(1600), within(1e-9));
    }

    @Test
    void utilisationIsTheTimeAveragedBusyShare() {
        EventLoop loop = new EventLoop(0);
        SimNode node = node(loop, 10);
        Log log = new Log();
        node.submit(new SimNode.Job(request(0, 0, 1), log));
        loop.at(10, () -> { });
        loop.run();
        assertThat(node.utilisation()).isCloseTo(PROFILE.prefillSeconds(0) / 10, within(1e-9));
    }
}
