package dev.zerolayer.bench.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** One line naming the machine a figure was measured on: cores, memory, OS, JVM, date and load average now. */
public final class Machine {

    private Machine() {
    }

    public static String describe() {
        long memKb = 0;
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version");
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    os = line.substring("PRETTY_NAME=".length()).replace("\"", "");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: keep what the JVM says
        }
        return String.format(Locale.ROOT, "%s, %d cores, %.0f GiB, %s, Java %s; load average at the end %s",
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                Runtime.getRuntime().availableProcessors(), memKb / 1024.0 / 1024.0, os,
                System.getProperty("java.version"), loadAverage());
    }

    /** The 1-, 5- and 15-minute load averages from /proc/loadavg, or "unknown". */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
