package dev.zerolayer.routing.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.routing.scrape.PrometheusTextParser.Scrape;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text-format tokenizer on real dcgm-exporter and vLLM captures, on the format's escapes, and on bad input. */
class PrometheusTextParserTest {

    static String fixture(String name) throws IOException {
        try (InputStream in = PrometheusTextParserTest.class.getResourceAsStream("/scrape/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsARealDcgmExporterScrape() throws Exception {
        Scrape scrape = PrometheusTextParser.parse(fixture("dcgm-t4-excerpt.txt"));
        assertThat(scrape.samples()).hasSize(4);
        assertThat(scrape.types()).containsEntry("DCGM_FI_DEV_FB_USED", "gauge");
        PrometheusSample used = scrape.named("DCGM_FI_DEV_FB_USED").get(0);
        assertThat(used.label("modelName")).isEqualTo("Tesla T4");
        assertThat(used.label("DCGM_FI_PROCESS_NAME")).isEqualTo("/usr/bin/dcgm-exporter");
        assertThat(used.value()).isEqualTo(0.0);
        assertThat(scrape.named("DCGM_FI_DEV_FB_FREE").get(0).value()).isEqualTo(15109.0);
    }

    @Test
    void readsARealVllmScrapeWithColonsAndHistograms() throws Exception {
        Scrape scrape = PrometheusTextParser.parse(fixture("vllm-opt125m-excerpt.txt"));
        assertThat(scrape.types()).containsEntry("vllm:time_to_first_token_seconds", "histogram");
        assertThat(scrape.named("vllm:time_to_first_token_seconds_sum").get(0).value())
                .isEqualTo(0.31326723098754883);
        assertThat(scrape.named("vllm:time_to_first_token_seconds_bucket"))
                .anySatisfy(bucket -> assertThat(bucket.label("le")).isEqualTo("+Inf"));
        assertThat(scrape.named("vllm:num_requests_running").get(0).label("model_name"))
                .isEqualTo("facebook/opt-125m");
    }

    @Test
    void handlesEscapesSpacesSpecialValuesAndTimestamps() {
        Scrape scrape = PrometheusTextParser.parse("""
                # a free comment
                m{a="x\\"y", b="line\\nbreak", c="back\\\\slash",} NaN
                m2 +Inf 1700000000000
                m3{ gpu = "0" } -Inf
                m4 1.5e3
                """);
        PrometheusSample first = scrape.samples().get(0);
        assertThat(first.labels()).isEqualTo(Map.of("a", "x\"y", "b", "line\nbreak", "c", "back\\slash"));
        assertThat(first.value()).isNaN();
        assertThat(scrape.samples().get(1).timestampMs()).isEqualTo(1_700_000_000_000L);
        assertThat(scrape.samples().get(1).value()).isInfinite();
        assertThat(scrape.samples().get(2).label("gpu")).isEqualTo("0");
        assertThat(scrape.samples().get(3).value()).isEqualTo(1500.0);
    }

    @Test
    void rejectsMalformedLinesNamingTheLineNotItsContent() {
        assertThatThrownBy(() -> PrometheusTextParser.parse("ok 1\nsecret{a=\"unterminated} 1\n"))
                .isInstanceOf(PrometheusParseException.class).hasMessageStartingWith("line 2:")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> PrometheusTextParser.parse("m{a=\"1\"}")).hasMessageContaining("missing value");
        assertThatThrownBy(() -> PrometheusTextParser.parse("m abc")).hasMessageContaining("bad value");
        assertThatThrownBy(() -> PrometheusTextParser.parse("9m 1")).hasMessageContaining("metric name");
        assertThatThrownBy(() -> PrometheusTextParser.parse("m 1 2 3")).hasMessageContaining("unexpected text");
    }
}
