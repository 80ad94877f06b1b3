package dev.zerolayer.bench.report;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** A runner's command line: {@code --name value} pairs and the bare flags the runner knows; anything else is refused. */
public record RunArguments(Map<String, String> options, Set<String> flags) {

    /**
     * @param knownFlags the runner's bare flags, without their {@code --}
     * @throws IllegalArgumentException for an argument that is neither a known flag nor a {@code --name value} pair
     */
    public static RunArguments parse(String[] args, Set<String> knownFlags) {
        Map<String, String> options = new LinkedHashMap<>();
        Set<String> flags = new LinkedHashSet<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : null;
            if (name != null && knownFlags.contains(name)) {
                flags.add(name);
            } else if (name != null && i + 1 < args.length) {
                options.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (expected --name value pairs or one of the flags " + knownFlags + ")");
            }
        }
        return new RunArguments(Map.copyOf(options), Set.copyOf(flags));
    }

    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /** Writes a runner's report to {@code --out} (its folder created) when given. */
    public void writeOut(String report) throws java.io.IOException {
        String out = options.get("out");
        if (out != null) {
            java.nio.file.Path path = java.nio.file.Path.of(out);
            java.nio.file.Files.createDirectories(path.toAbsolutePath().getParent());
            java.nio.file.Files.writeString(path, report);
        }
    }
}
