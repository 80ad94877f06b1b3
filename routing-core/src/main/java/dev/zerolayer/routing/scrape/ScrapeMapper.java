package dev.zerolayer.routing.scrape;

import dev.zerolayer.routing.scrape.PrometheusTextParser.Scrape;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Maps dcgm-exporter and vLLM {@code /metrics} scrapes to one node's signals. Series are selected by label matchers (for
 * example {@code Hostname=gpu-node-7} or {@code gpu=0|1|2|3}); non-finite values are ignored. vLLM's
 * {@code vllm:kv_cache_usage_perc} is preferred to the older {@code vllm:gpu_cache_usage_perc}.
 */
public final class ScrapeMapper {

    public static final String SM_ACTIVE = "DCGM_FI_PROF_SM_ACTIVE";
    public static final String NVLINK_TX = "DCGM_FI_PROF_NVLINK_TX_BYTES";
    public static final String NVLINK_RX = "DCGM_FI_PROF_NVLINK_RX_BYTES";
    public static final String FB_USED = "DCGM_FI_DEV_FB_USED";
    public static final String FB_FREE = "DCGM_FI_DEV_FB_FREE";
    public static final String XID = "DCGM_FI_DEV_XID_ERRORS";
    public static final String RUNNING = "vllm:num_requests_running";
    public static final String WAITING = "vllm:num_requests_waiting";
    public static final String KV_USAGE = "vllm:kv_cache_usage_perc";
    public static final String KV_USAGE_OLD = "vllm:gpu_cache_usage_perc";
    public static final String TTFT_SUM = "vllm:time_to_first_token_seconds_sum";
    public static final String TTFT_COUNT = "vllm:time_to_first_token_seconds_count";

    private final Predicate<PrometheusSample> gpuSelector;
    private final Predicate<PrometheusSample> engineSelector;

    /**
     * @param gpuLabels    label matchers for dcgm series: label name to allowed values separated by {@code |}
     * @param engineLabels label matchers for vLLM series, same form
     */
    public ScrapeMapper(Map<String, String> gpuLabels, Map<String, String> engineLabels) {
        this.gpuSelector = matcher(gpuLabels);
        this.engineSelector = matcher(engineLabels);
    }

    public ScrapedSignals map(Scrape dcgm, Scrape vllm) {
        Scrape gpus = dcgm == null ? new Scrape(List.of(), Map.of()) : dcgm;
        Scrape engine = vllm == null ? new Scrape(List.of(), Map.of()) : vllm;
        OptionalDouble kv = sum(engine, KV_USAGE, engineSelector);
        return new ScrapedSignals(
                mean(gpus, SM_ACTIVE, gpuSelector),
                sum(gpus, NVLINK_TX, gpuSelector),
                sum(gpus, NVLINK_RX, gpuSelector),
                sum(gpus, FB_USED, gpuSelector),
                sum(gpus, FB_FREE, gpuSelector),
                max(gpus, XID, gpuSelector),
                sum(engine, RUNNING, engineSelector),
                sum(engine, WAITING, engineSelector),
                kv.isPresent() ? kv : sum(engine, KV_USAGE_OLD, engineSelector),
                sum(engine, TTFT_SUM, engineSelector),
                sum(engine, TTFT_COUNT, engineSelector));
    }

    private static OptionalDouble mean(Scrape scrape, String name, Predicate<PrometheusSample> selector) {
        return values(scrape, name, selector, s -> s.value()).average();
    }

    private static OptionalDouble sum(Scrape scrape, String name, Predicate<PrometheusSample> selector) {
        double[] values = values(scrape, name, selector, s -> s.value()).toArray();
        return values.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(java.util.Arrays.stream(values).sum());
    }

    private static OptionalDouble max(Scrape scrape, String name, Predicate<PrometheusSample> selector) {
        return values(scrape, name, selector, s -> s.value()).max();
    }

    private static java.util.stream.DoubleStream values(Scrape scrape, String name,
            Predicate<PrometheusSample> selector, ToDoubleFunction<PrometheusSample> value) {
        return scrape.named(name).stream().filter(selector).mapToDouble(value).filter(Double::isFinite);
    }

    private static Predicate<PrometheusSample> matcher(Map<String, String> labels) {
        return sample -> labels.entrySet().stream().allMatch(entry -> {
            String actual = sample.label(entry.getKey());
            return actual != null && List.of(entry.getValue().split("\\|")).contains(actual);
        });
    }
}
