package dev.zerolayer.routing.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Node signals from scrapes: GPU selection by labels, aggregation, and the older vLLM KV-usage name. */
class ScrapeMapperTest {

    private static final String DCGM = """
            DCGM_FI_PROF_SM_ACTIVE{gpu="0",Hostname="node-a"} 0.90
            DCGM_FI_PROF_SM_ACTIVE{gpu="1",Hostname="node-a"} 0.98
            DCGM_FI_PROF_SM_ACTIVE{gpu="0",Hostname="node-b"} 0.10
            DCGM_FI_PROF_NVLINK_TX_BYTES{gpu="0",Hostname="node-a"} 1000
            DCGM_FI_PROF_NVLINK_TX_BYTES{gpu="1",Hostname="node-a"} 3000
            DCGM_FI_DEV_FB_USED{gpu="0",Hostname="node-a"} 30000
            DCGM_FI_DEV_FB_USED{gpu="1",Hostname="node-a"} 31000
            DCGM_FI_DEV_XID_ERRORS{gpu="1",Hostname="node-a"} 79
            """;

    @Test
    void aggregatesTheSelectedGpusOfANode() throws Exception {
        ScrapeMapper mapper = new ScrapeMapper(Map.of("Hostname", "node-a"), Map.of("model_name", "facebook/opt-125m"));
        ScrapedSignals signals = mapper.map(PrometheusTextParser.parse(DCGM),
                PrometheusTextParser.parse(PrometheusTextParserTest.fixture("vllm-opt125m-excerpt.txt")));

        assertThat(signals.smActive().getAsDouble()).isEqualTo(0.94, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(signals.nvlinkTxBytesPerSecond().getAsDouble()).isEqualTo(4000);
        assertThat(signals.nvlinkRxBytesPerSecond()).isEmpty();
        assertThat(signals.framebufferUsedMiB().getAsDouble()).isEqualTo(61000);
        assertThat(signals.lastXidError().getAsDouble()).isEqualTo(79);
        assertThat(signals.requestsRunning().getAsDouble()).isZero();
        assertThat(signals.kvCacheUsage()).isPresent(); // from the older gpu_cache_usage_perc
        assertThat(signals.ttftCount().getAsDouble()).isEqualTo(1.0);
    }

    @Test
    void aGpuListSelectsSomeGpusOnly() {
        ScrapeMapper mapper = new ScrapeMapper(Map.of("Hostname", "node-a", "gpu", "0"), Map.of());
        assertThat(mapper.map(PrometheusTextParser.parse(DCGM), null).smActive().getAsDouble()).isEqualTo(0.90);
        assertThat(new ScrapeMapper(Map.of("gpu", "0|1"), Map.of()).map(PrometheusTextParser.parse(DCGM), null)
                .smActive().getAsDouble()).isEqualTo((0.90 + 0.98 + 0.10) / 3,
                        org.assertj.core.api.Assertions.within(1e-9));
    }
}
