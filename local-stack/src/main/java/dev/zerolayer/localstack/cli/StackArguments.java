package dev.zerolayer.localstack.cli;

import dev.zerolayer.localstack.process.StackServices;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Parses the launcher's options ({@code --opt value} or {@code --opt=value}); anything unknown is a usage error. */
public final class StackArguments {

    public static final int DEFAULT_ROUTER_PORT = 8080;
    public static final int DEFAULT_KAFKA_PORT = 19092;
    public static final Path DEFAULT_DATA_DIR = Path.of(".zerolayer", "data");
    public static final Duration DEFAULT_SLOW_START = Duration.ofSeconds(60);

    public static final String USAGE = """
            usage: LocalStack [--fresh] [--port N] [--data-dir DIR] [--kafka-port N] [--skip SERVICES] [--root DIR]
                              [--tokenizer DIR|URL] [--replicas N] [--slow-start SECONDS]
              --fresh          wipe the data directory first (only one this launcher created)
              --port N         router-service HTTP port (default 8080)
              --data-dir DIR   broker data and service logs (default <root>/.zerolayer/data)
              --kafka-port N   Kafka client port (default 19092); the controller uses N+1
              --skip SERVICES  comma-separated modules not to run, e.g. one you run from an IDE
              --root DIR       repository root holding <module>/target/<module>.jar (default: current directory)
              --tokenizer DIR|URL  a Hugging Face model's tokenizer files (e.g. Qwen3's): two of the haiku nodes speak
                               OpenAI's API and play vLLM serving that model (its tokenizer and chat template,
                               sha256_cbor block hashes) and declare it, so the router computes their exact prefixes
              --replicas N     run N (1-3) of router, telemetry, complexity, cache and fallback: the routers on 18090..
                               behind HAProxy (Debian package haproxy) on the router port, replica k of the others on
                               its port + 100 (k-1); the simulator and the console run once
              --slow-start SECONDS  with --replicas, a router back up after a restart gets its full share of the
                               requests gradually over this long (default 60; 0: at once)
              --help           print this help
            Fixed ports: telemetry 18081, complexity 18082, cache 18083, fallback 18084, simulator 18085, console 18086.
            Exit codes: 0 stopped, 1 a service or the broker failed, 2 a port is in use or a topic has the wrong
            cleanup policy, 64 bad arguments.""";

    private StackArguments() {
    }

    /** Reads the arguments; relative paths resolve against {@code cwd}. */
    public static StackOptions parse(List<String> args, Path cwd) {
        boolean fresh = false;
        boolean help = false;
        int port = DEFAULT_ROUTER_PORT;
        int kafkaPort = DEFAULT_KAFKA_PORT;
        String dataDir = null;
        String root = null;
        String tokenizer = null;
        int replicas = 1;
        Duration slowStart = DEFAULT_SLOW_START;
        Set<String> skip = new LinkedHashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "--fresh" -> fresh = flag(name, inline);
                case "--help", "-h" -> help = flag(name, inline);
                case "--port" -> port = port(name, inline != null ? inline : value(args, ++i, name), 65535);
                case "--kafka-port" -> kafkaPort = port(name, inline != null ? inline : value(args, ++i, name), 65534);
                case "--data-dir" -> dataDir = nonBlank(name, inline != null ? inline : value(args, ++i, name));
                case "--skip" -> skip.addAll(modules(name, inline != null ? inline : value(args, ++i, name)));
                case "--root" -> root = nonBlank(name, inline != null ? inline : value(args, ++i, name));
                case "--replicas" -> replicas = replicas(name, inline != null ? inline : value(args, ++i, name));
                case "--slow-start" -> slowStart = seconds(name, inline != null ? inline : value(args, ++i, name));
                case "--tokenizer" -> tokenizer = nonBlank(name, inline != null ? inline : value(args, ++i, name));
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        Path rootPath = (root == null ? cwd : cwd.resolve(root)).toAbsolutePath().normalize();
        Path dataPath = (dataDir == null ? rootPath.resolve(DEFAULT_DATA_DIR) : cwd.resolve(dataDir))
                .toAbsolutePath().normalize();
        String tokenizerLocation = tokenizer == null || tokenizer.matches("(?i)(https?|file):.*") ? tokenizer
                : cwd.resolve(tokenizer).toAbsolutePath().normalize().toString();
        return new StackOptions(fresh, port, dataPath, kafkaPort, rootPath, skip, help, tokenizerLocation, replicas,
                slowStart);
    }

    private static boolean flag(String name, String inline) {
        if (inline != null) {
            throw new UsageException(name + " takes no value");
        }
        return true;
    }

    private static String value(List<String> args, int index, String name) {
        if (index >= args.size() || args.get(index).startsWith("--")) {
            throw new UsageException(name + " needs a value");
        }
        return args.get(index);
    }

    private static List<String> modules(String name, String value) {
        List<String> modules = Arrays.stream(value.split(",")).map(String::trim).filter(m -> !m.isEmpty()).toList();
        if (modules.isEmpty()) {
            throw new UsageException(name + " needs a value");
        }
        return modules;
    }

    private static String nonBlank(String name, String value) {
        if (value.isBlank()) {
            throw new UsageException(name + " needs a value");
        }
        return value;
    }

    private static int replicas(String name, String value) {
        try {
            int replicas = Integer.parseInt(value.trim());
            if (replicas >= 1 && replicas <= StackServices.MAX_REPLICAS) {
                return replicas;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new UsageException(name + " must be between 1 and " + StackServices.MAX_REPLICAS + ", got '" + value
                + "'");
    }

    private static Duration seconds(String name, String value) {
        try {
            int seconds = Integer.parseInt(value.trim());
            if (seconds >= 0 && seconds <= 3600) {
                return Duration.ofSeconds(seconds);
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new UsageException(name + " must be a number of seconds between 0 and 3600, got '" + value + "'");
    }

    private static int port(String name, String value, int max) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 1 && port <= max) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new UsageException(name + " must be a port between 1 and " + max + ", got '" + value + "'");
    }
}
