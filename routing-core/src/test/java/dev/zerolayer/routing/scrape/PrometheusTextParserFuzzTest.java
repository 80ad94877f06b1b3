package dev.zerolayer.routing.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.testing.SeededFuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of the Prometheus text parser with random text and with mutated valid expositions: every input ends in a
 * parse result or a {@link PrometheusParseException} naming a line (never another exception), in bounded time; an
 * unmutated exposition parses back to exactly what was generated. Cases: {@code -Dzerolayer.fuzz.cases} (default
 * 10,000 per surface); a failing case is replayed with the printed {@code -Dzerolayer.fuzz.seed}.
 */
class PrometheusTextParserFuzzTest {

    private static final int DEFAULT_CASES = 10_000;
    /** No single input, however hostile, may take longer than this to parse or refuse. */
    private static final Duration PER_INPUT = Duration.ofSeconds(2);
    private static final String NASTY = "{}\",=\\\n\r\t #:_aZ09.+-eE\u0000\u00e9\u4e2d\ud83d\ude00\ud800";
    private static final String[] NAMES = {"DCGM_FI_PROF_SM_ACTIVE", "vllm:num_requests_running",
        "vllm:kv_cache_usage_perc", "vllm:time_to_first_token_seconds_bucket", "up", "_x", "a:b:c"};

    /** One generated sample line with what it must parse to. */
    record Line(String name, Map<String, String> labels, String valueText, double value, Long timestamp) {

        String render() {
            StringBuilder line = new StringBuilder(name);
            if (!labels.isEmpty()) {
                List<String> pairs = new ArrayList<>();
                labels.forEach((k, v) -> pairs.add(k + "=\"" + v.replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\n", "\\n") + "\""));
                line.append('{').append(String.join(",", pairs)).append('}');
            }
            line.append(' ').append(valueText);
            if (timestamp != null) {
                line.append(' ').append(timestamp);
            }
            return line.toString();
        }
    }

    @Test
    void randomTextParsesOrFailsWithTheDocumentedException() {
        fuzz("prometheus random text", (random, i) -> parseOrRefuse(randomText(random)));
    }

    @Test
    void mutatedExpositionsParseOrFailWithTheDocumentedException() {
        fuzz("prometheus mutated exposition", (random, i) -> {
            String text = render(exposition(random));
            for (int edits = 1 + random.nextInt(6); edits > 0; edits--) {
                text = mutate(random, text);
            }
            parseOrRefuse(text);
        });
    }

    @Test
    void anUnmutatedExpositionParsesBackToWhatWasGenerated() {
        fuzz("prometheus valid exposition", (random, i) -> {
            List<Line> lines = exposition(random);
            PrometheusTextParser.Scrape scrape = PrometheusTextParser.parse(render(lines));
            assertThat(scrape.samples()).hasSize(lines.size());
            for (int n = 0; n < lines.size(); n++) {
                PrometheusSample sample = scrape.samples().get(n);
                Line line = lines.get(n);
                assertThat(sample.name()).isEqualTo(line.name());
                assertThat(sample.labels()).isEqualTo(line.labels());
                assertThat(Double.valueOf(sample.value())).isEqualTo(Double.valueOf(line.value()));
                assertThat(sample.timestampMs()).isEqualTo(line.timestamp());
            }
        });
    }

    @Test
    void aHugeScrapeIsRefusedByItsLineLimitInBoundedTime() {
        String huge = "a 1\n".repeat(250_000);
        long start = System.nanoTime();
        assertThatThrownBy(() -> PrometheusTextParser.parse(huge)).isInstanceOf(PrometheusParseException.class)
                .hasMessageContaining("more than");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void veryLongLinesParseOrFailInBoundedTime() {
        parseOrRefuse("m{l=\"" + "\\\"".repeat(500_000) + "\"} 1");
        parseOrRefuse("m{" + "a=\"b\",".repeat(100_000) + "} 1");
        parseOrRefuse("m " + "9".repeat(1_000_000));
        parseOrRefuse("m{l=\"" + "x".repeat(1_000_000));
    }

    private static void parseOrRefuse(String text) {
        long start = System.nanoTime();
        try {
            PrometheusTextParser.Scrape scrape = PrometheusTextParser.parse(text);
            assertThat(scrape.samples()).allSatisfy(sample -> assertThat(sample.name()).isNotEmpty());
        } catch (PrometheusParseException expected) {
            assertThat(expected.getMessage()).startsWith("line ");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PER_INPUT);
    }

    private static String render(List<Line> lines) {
        StringBuilder text = new StringBuilder("# HELP fuzz generated\n# TYPE fuzz gauge\n");
        lines.forEach(line -> text.append(line.render()).append('\n'));
        return text.toString();
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(300);
        boolean nasty = random.nextBoolean();
        for (int i = 0; i < length; i++) {
            if (nasty) {
                text.append(NASTY.charAt(random.nextInt(NASTY.length())));
            } else {
                text.appendCodePoint(random.nextInt(8) == 0 ? random.nextInt(0x10FFFF) : random.nextInt(0x80));
            }
        }
        return text.toString();
    }

    private static List<Line> exposition(Random random) {
        List<Line> lines = new ArrayList<>();
        for (int n = random.nextInt(13); n > 0; n--) {
            String name = random.nextBoolean() ? NAMES[random.nextInt(NAMES.length)]
                    : word(random, "abcdefghijklmnopqrstuvwxyz_:", 1, 12) + word(random, "0123456789", 0, 3);
            Map<String, String> labels = new LinkedHashMap<>();
            for (int l = random.nextInt(4); l > 0; l--) {
                labels.put(word(random, "abcdefghijklmnopqrstuvwxyz_", 1, 8),
                        word(random, NASTY.replace("\u0000", "") + "abcdefghij", 0, 16));
            }
            String valueText;
            double value;
            switch (random.nextInt(4)) {
                case 0 -> {
                    value = (random.nextDouble() - 0.5) * 2e12;
                    valueText = Double.toString(value);
                }
                case 1 -> {
                    long whole = random.nextLong();
                    value = whole;
                    valueText = Long.toString(whole);
                }
                case 2 -> {
                    String[] special = {"NaN", "+Inf", "-Inf", "1e308"};
                    double[] values = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e308};
                    int pick = random.nextInt(special.length);
                    valueText = special[pick];
                    value = values[pick];
                }
                default -> {
                    value = random.nextInt(1000) / 100.0;
                    valueText = Double.toString(value);
                }
            }
            Long timestamp = random.nextBoolean() ? null : (long) (random.nextDouble() * 4_102_444_800_000L);
            lines.add(new Line(name, labels, valueText, value, timestamp));
        }
        return lines;
    }

    private static String word(Random random, String alphabet, int min, int max) {
        StringBuilder word = new StringBuilder();
        for (int i = min + random.nextInt(max - min + 1); i > 0; i--) {
            word.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return word.toString();
    }

    /** An insert (nasty or any character), a deletion, a cut or a duplicated run. */
    private static String mutate(Random random, String text) {
        int at = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
        return switch (random.nextInt(4)) {
            case 0 -> text.substring(0, at) + (random.nextBoolean() ? NASTY.charAt(random.nextInt(NASTY.length()))
                    : (char) random.nextInt(0x10000)) + text.substring(at);
            case 1 -> text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + random.nextInt(20)));
            case 2 -> text.substring(0, at);
            default -> text.substring(0, at) + text.substring(at, Math.min(text.length(), at + 1 + random.nextInt(40)))
                    + text.substring(at);
        };
    }

    private static void fuzz(String surface, BiConsumer<Random, Integer> body) {
        SeededFuzz.run(surface, DEFAULT_CASES, body);
    }
}
