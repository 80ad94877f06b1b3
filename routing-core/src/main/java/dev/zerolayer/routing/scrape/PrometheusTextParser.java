package dev.zerolayer.routing.scrape;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tokenizer for the Prometheus text exposition format 0.0.4: {@code # HELP} and {@code # TYPE} lines (other comments
 * and blank lines skipped), samples as {@code name[{label="value",…}] value [timestamp]} with the format's escapes
 * ({@code \\}, {@code \"}, {@code \n}) in label values, {@code NaN}/{@code +Inf}/{@code -Inf} values, and metric names
 * with colons. Histogram series ({@code _bucket}, {@code _sum}, {@code _count}) are plain samples here.
 */
public final class PrometheusTextParser {

    /** The parsed scrape: samples in order and the declared type of each metric family. */
    public record Scrape(List<PrometheusSample> samples, Map<String, String> types) {

        public List<PrometheusSample> named(String name) {
            return samples.stream().filter(sample -> sample.name().equals(name)).toList();
        }
    }

    private static final int MAX_LINES = 200_000;

    private PrometheusTextParser() {
    }

    public static Scrape parse(String text) {
        List<PrometheusSample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        int lineNumber = 0;
        int start = 0;
        int length = text.length();
        while (start <= length) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = length;
            }
            lineNumber++;
            if (lineNumber > MAX_LINES) {
                throw new PrometheusParseException(lineNumber, "more than " + MAX_LINES + " lines");
            }
            String line = text.substring(start, end);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            parseLine(line, lineNumber, samples, types);
            start = end + 1;
        }
        return new Scrape(List.copyOf(samples), Map.copyOf(types));
    }

    private static void parseLine(String line, int lineNumber, List<PrometheusSample> samples,
            Map<String, String> types) {
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
            return;
        }
        if (trimmed.startsWith("#")) {
            String[] parts = trimmed.substring(1).strip().split("\\s+", 3);
            if (parts.length >= 3 && parts[0].equals("TYPE")) {
                types.put(parts[1], parts[2].strip());
            }
            return;
        }
        samples.add(new LineReader(trimmed, lineNumber).sample());
    }

    /** Reads one sample line left to right. */
    private static final class LineReader {

        private final String line;
        private final int lineNumber;
        private int pos;

        LineReader(String line, int lineNumber) {
            this.line = line;
            this.lineNumber = lineNumber;
        }

        PrometheusSample sample() {
            String name = name(true);
            Map<String, String> labels = new LinkedHashMap<>();
            skipBlanks();
            if (peek() == '{') {
                pos++;
                labels(labels);
            }
            skipBlanks();
            String valueToken = token();
            if (valueToken.isEmpty()) {
                throw error("missing value");
            }
            double value = number(valueToken);
            skipBlanks();
            Long timestamp = null;
            String timestampToken = token();
            if (!timestampToken.isEmpty()) {
                try {
                    timestamp = Long.parseLong(timestampToken);
                } catch (NumberFormatException e) {
                    throw error("bad timestamp");
                }
            }
            skipBlanks();
            if (pos < line.length()) {
                throw error("unexpected text after the sample");
            }
            return new PrometheusSample(name, labels, value, timestamp);
        }

        private void labels(Map<String, String> labels) {
            while (true) {
                skipBlanks();
                if (peek() == '}') {
                    pos++;
                    return;
                }
                String label = name(false);
                skipBlanks();
                expect('=');
                skipBlanks();
                expect('"');
                labels.put(label, quoted());
                skipBlanks();
                char next = peek();
                if (next == ',') {
                    pos++;
                } else if (next != '}') {
                    throw error("expected ',' or '}' in labels");
                }
            }
        }

        private String quoted() {
            StringBuilder value = new StringBuilder();
            while (pos < line.length()) {
                char c = line.charAt(pos++);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\') {
                    if (pos >= line.length()) {
                        break;
                    }
                    char escaped = line.charAt(pos++);
                    switch (escaped) {
                        case 'n' -> value.append('\n');
                        case '\\' -> value.append('\\');
                        case '"' -> value.append('"');
                        default -> value.append('\\').append(escaped);
                    }
                } else {
                    value.append(c);
                }
            }
            throw error("unterminated label value");
        }

        private String name(boolean metric) {
            int begin = pos;
            while (pos < line.length()) {
                char c = line.charAt(pos);
                boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
                boolean digit = c >= '0' && c <= '9';
                if (letter || (digit && pos > begin)) {
                    pos++;
                } else {
                    break;
                }
            }
            if (pos == begin) {
                throw error(metric ? "expected a metric name" : "expected a label name");
            }
            return line.substring(begin, pos);
        }

        private String token() {
            int begin = pos;
            while (pos < line.length() && !Character.isWhitespace(line.charAt(pos))) {
                pos++;
            }
            return line.substring(begin, pos);
        }

        private double number(String token) {
            switch (token) {
                case "NaN":
                    return Double.NaN;
                case "+Inf":
                case "Inf":
                    return Double.POSITIVE_INFINITY;
                case "-Inf":
                    return Double.NEGATIVE_INFINITY;
                default:
                    try {
                        return Double.parseDouble(token);
                    } catch (NumberFormatException e) {
                        throw error("bad value");
                    }
            }
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private char peek() {
            return pos < line.length() ? line.charAt(pos) : '\0';
        }

        private void skipBlanks() {
            while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
                pos++;
            }
        }

        private PrometheusParseException error(String problem) {
            return new PrometheusParseException(lineNumber, problem + " at column " + (pos + 1));
        }
    }
}
