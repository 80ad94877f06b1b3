package dev.zerolayer.bench.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the Azure LLM inference trace 2023 ({@code TIMESTAMP,ContextTokens,GeneratedTokens}, both the code and the
 * conversation file) into one arrival-ordered list whose clock starts at the earliest arrival of either file.
 */
public final class AzureTrace {

    public static final String CODE_FILE = "AzureLLMInferenceTrace_code.csv";
    public static final String CONV_FILE = "AzureLLMInferenceTrace_conv.csv";

    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    /** One parsed row before the shared clock is applied. */
    record Row(String source, long epochNanos, int contextTokens, int generatedTokens, int line) {
    }

    private AzureTrace() {
    }

    /** Both files of the trace directory, merged; {@code limitPerFile} > 0 keeps only each file's first rows. */
    public static List<TraceRequest> load(Path directory, int limitPerFile) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String[] file : new String[][] {{CODE_FILE, "code"}, {CONV_FILE, "conv"}}) {
            try (Reader reader = Files.newBufferedReader(directory.resolve(file[0]), StandardCharsets.UTF_8)) {
                rows.addAll(parse(reader, file[1], limitPerFile));
            }
        }
        return merge(rows);
    }

    static List<Row> parse(Reader input, String source, int limit) throws IOException {
        BufferedReader reader = new BufferedReader(input);
        String header = reader.readLine();
        if (header == null || !header.trim().equalsIgnoreCase("TIMESTAMP,ContextTokens,GeneratedTokens")) {
            throw new IOException(source + ": expected header TIMESTAMP,ContextTokens,GeneratedTokens, got " + header);
        }
        List<Row> rows = new ArrayList<>();
        String line;
        int number = 1;
        while ((line = reader.readLine()) != null && (limit <= 0 || rows.size() < limit)) {
            number++;
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split(",");
            if (parts.length != 3) {
                throw new IOException(source + " line " + number + ": expected 3 fields, got " + parts.length);
            }
            try {
                LocalDateTime at = LocalDateTime.parse(parts[0].trim(), TIMESTAMP);
                long nanos = at.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + at.getNano();
                rows.add(new Row(source, nanos, Integer.parseInt(parts[1].trim()), Integer.parseInt(parts[2].trim()),
                        number));
            } catch (RuntimeException e) {
                throw new IOException(source + " line " + number + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    static List<TraceRequest> merge(List<Row> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingLong(Row::epochNanos).thenComparing(Row::source).thenComparingInt(Row::line));
        long start = sorted.get(0).epochNanos();
        return sorted.stream().map(r -> new TraceRequest(r.source(), (r.epochNanos() - start) / 1e9,
                r.contextTokens(), r.generatedTokens())).toList();
    }
}
