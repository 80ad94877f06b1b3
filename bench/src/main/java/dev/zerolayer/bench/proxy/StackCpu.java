package dev.zerolayer.bench.proxy;

import dev.zerolayer.bench.proxy.RouterProfileRun.ThreadCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where a window's CPU went on the whole machine: each process of the stack (and the load's own), per answered
 * request, with its busiest thread groups, from the threads' {@code /proc} times.
 */
final class StackCpu {

    private static final Pattern MODULE = Pattern.compile("([a-z]+(?:-[a-z]+)*)(?:/target/[^ ]*)?\\.jar");

    /** The processes' threads at one moment. */
    record Snapshot(Map<Long, String> names, Map<Long, Map<Integer, ThreadCounters>> threads) {
    }

    private StackCpu() {
    }

    static Snapshot take() throws IOException {
        Map<Long, String> names = new LinkedHashMap<>();
        names.put(ProcessHandle.current().pid(), "bench (the load)");
        ProcessHandle.current().descendants().forEach(p -> names.put(p.pid(), name(p)));
        Map<Long, Map<Integer, ThreadCounters>> threads = new LinkedHashMap<>();
        for (long pid : names.keySet()) {
            try {
                threads.put(pid, RouterProfileRun.threads(pid));
            } catch (IOException gone) {
                // the process ended: left out
            }
        }
        return new Snapshot(names, threads);
    }

    /** A process's name: the module whose jar it runs, else its command. */
    static String name(ProcessHandle process) {
        String line = process.info().commandLine().orElse("?");
        String replica = line.contains("--zerolayer.replica-id=") ? line.replaceAll(
                ".*--zerolayer.replica-id=(\\S+).*", "$1") : null;
        Matcher jar = MODULE.matcher(line);
        String module = jar.find() ? jar.group(1) : Path.of(process.info().command().orElse("?")).getFileName()
                .toString();
        if (module.equals("local-stack")) {
            return "local-stack (launcher and Kafka broker)";
        }
        return replica != null ? replica : module;
    }

    /** The window's table: CPU µs per request by process, busiest first, and their sum as a share of the cores. */
    static String table(Snapshot before, Snapshot after, double requests, double seconds, int cores) {
        record Row(String name, double micros, String threads) {
        }
        List<Row> rows = new ArrayList<>();
        double total = 0;
        for (Map.Entry<Long, Map<Integer, ThreadCounters>> entry : after.threads().entrySet()) {
            Map<String, long[]> groups = RouterProfileRun.groupDeltas(before.threads().getOrDefault(entry.getKey(),
                    Map.of()), entry.getValue());
            double micros = RouterProfileRun.microsPerRequest(groups.values().stream().mapToLong(g -> g[0]).sum(),
                    requests);
            total += micros;
            String busiest = groups.entrySet().stream().filter(g -> g.getValue()[0] > 0)
                    .sorted(Comparator.comparingLong((Map.Entry<String, long[]> g) -> g.getValue()[0]).reversed())
                    .limit(3)
                    .map(g -> String.format(Locale.ROOT, "%s %.0f", g.getKey(),
                            RouterProfileRun.microsPerRequest(g.getValue()[0], requests)))
                    .collect(Collectors.joining(", "));
            rows.add(new Row(after.names().get(entry.getKey()), micros, busiest));
        }
        rows.sort(Comparator.comparingDouble(Row::micros).reversed());
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "The stack's processes and the load used **%.0f µs of CPU per request** "
                + "between them, %.0f %% of the machine's %d cores:%n%n", total, total * requests / seconds / 1e4
                / cores, cores));
        md.append("| process | CPU µs / request | % of one core | busiest threads (µs / request) |\n|---|---|---|---|\n");
        for (Row row : rows) {
            if (row.micros() > 0) {
                md.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %s |%n", row.name(), row.micros(),
                        row.micros() * requests / seconds / 1e4, row.threads()));
            }
        }
        md.append('\n');
        return md.toString();
    }
}
