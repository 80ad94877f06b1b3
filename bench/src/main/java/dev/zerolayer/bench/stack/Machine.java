package dev.zerolayer.bench.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** One line naming the machine a figure was measured on: date, cores, CPU, memory, OS, JVM and load average now. */
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
        return String.format(Locale.ROOT, "%s, %d cores (%s), %.0f GiB, %s, Java %s; load average at the end %s",
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                Runtime.getRuntime().availableProcessors(), cpu(), memKb / 1024.0 / 1024.0, os,
                System.getProperty("java.version"), loadAverage());
    }

    /**
     * The CPU as /proc/cpuinfo names it: model name, family and model numbers, clock, and "virtual" under a hypervisor
     * (machines of the same core count differ: figures from two machines are not comparable); "CPU unknown" elsewhere.
     */
    public static String cpu() {
        try {
            return cpu(Files.readAllLines(Path.of("/proc/cpuinfo")));
        } catch (IOException | RuntimeException e) {
            return "CPU unknown";
        }
    }

    static String cpu(List<String> cpuinfo) {
        String name = null;
        String family = null;
        String model = null;
        String mhz = null;
        boolean virtual = false;
        for (String line : cpuinfo) {
            if (line.isBlank()) {
                break; // the first processor describes them all
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            switch (key) {
                case "model name" -> name = value;
                case "cpu family" -> family = value;
                case "model" -> model = value;
                case "cpu MHz" -> mhz = value;
                case "flags" -> virtual = (" " + value + " ").contains(" hypervisor ");
                default -> {
                }
            }
        }
        if (name == null) {
            return "CPU unknown";
        }
        StringBuilder text = new StringBuilder(name);
        if (family != null && model != null) {
            text.append(", family ").append(family).append(" model ").append(model);
        }
        if (mhz != null) {
            try {
                text.append(String.format(Locale.ROOT, ", %.0f MHz", Double.parseDouble(mhz)));
            } catch (NumberFormatException e) {
                // leave the clock out
            }
        }
        if (virtual) {
            text.append(", virtual");
        }
        return text.toString();
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
