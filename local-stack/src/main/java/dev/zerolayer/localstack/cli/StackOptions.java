package dev.zerolayer.localstack.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * What one run of the local stack was asked for; every path is absolute and the Kafka controller listens on
 * {@code kafkaPort + 1}.
 *
 * @param fresh      wipe the data directory before starting
 * @param routerPort HTTP port of router-service
 * @param dataDir    where the broker's log and the services' logs live
 * @param kafkaPort  the broker's client port
 * @param root       the repository root the service jars are found under
 * @param skip       modules not to run (e.g. one running in an IDE)
 * @param help       only print the usage
 * @param tokenizer  tokenizer files the simulator's vLLM-playing nodes serve (null: no such nodes)
 * @param replicas   how many of each replicated service to run (routers behind HAProxy on {@code routerPort})
 * @param slowStart  over how long a router replica back up gets its full share of requests (HAProxy's slow start)
 */
public record StackOptions(boolean fresh, int routerPort, Path dataDir, int kafkaPort, Path root, Set<String> skip,
        boolean help, String tokenizer, int replicas, Duration slowStart) {

    public StackOptions {
        skip = Set.copyOf(skip);
    }

    public int controllerPort() {
        return kafkaPort + 1;
    }

    public Path kafkaDir() {
        return dataDir.resolve("kafka");
    }

    public Path logsDir() {
        return dataDir.resolve("logs");
    }
}
