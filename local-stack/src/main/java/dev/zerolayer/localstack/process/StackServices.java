package dev.zerolayer.localstack.process;

import dev.zerolayer.localstack.cli.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The full stack is the router on the chosen port and every other service on its fixed port 18081..18086; with
 * replicas, the routers listen on 18090.. (HAProxy takes the chosen port) and replica k of telemetry, complexity and
 * fallback on its port + 100 (k - 1), each named and (fallback) given a history folder of its own.
 */
public final class StackServices {

    /** The most replicas {@code --replicas} runs. */
    public static final int MAX_REPLICAS = 3;
    /** Where the routers listen when several run behind the balancer. */
    public static final int ROUTER_REPLICA_PORT = 18090;

    private static final List<String> REPLICATED = List.of("telemetry-service", "complexity-service",
            "cache-service", "fallback-service");

    private StackServices() {
    }

    public static List<ServiceSpec> defaults(int routerPort) {
        return List.of(
                ServiceSpec.of("router-service", routerPort),
                ServiceSpec.of("telemetry-service", 18081),
                ServiceSpec.of("complexity-service", 18082),
                ServiceSpec.of("cache-service", 18083),
                ServiceSpec.of("fallback-service", 18084),
                ServiceSpec.of("node-simulator", 18085),
                ServiceSpec.of("console-service", 18086).withArgs("--zerolayer.console.local=true"));
    }

    /**
     * {@code replicas} of the router and the replicated services (one of the others); a router's spec then names
     * its replica port, and the balancer in front of them is the launcher's to start.
     */
    public static List<ServiceSpec> replicated(int routerPort, int replicas, Path dataDir) {
        if (replicas == 1) {
            return defaults(routerPort);
        }
        List<ServiceSpec> all = new ArrayList<>();
        for (ServiceSpec spec : defaults(routerPort)) {
            boolean router = spec.module().equals("router-service");
            if (!router && !REPLICATED.contains(spec.module())) {
                all.add(spec);
                continue;
            }
            for (int k = 1; k <= replicas; k++) {
                int port = router ? ROUTER_REPLICA_PORT + k - 1 : spec.port() + 100 * (k - 1);
                ServiceSpec replica = new ServiceSpec(spec.module(), spec.key() + "-" + k, port, spec.args())
                        .withArgs("--zerolayer.replica-id=" + spec.module() + "-" + k);
                if (spec.module().equals("fallback-service")) {
                    replica = replica.withArgs("--zerolayer.fallback.data-dir=" + dataDir.resolve("fallback-" + k));
                }
                all.add(replica);
            }
        }
        return List.copyOf(all);
    }

    /** The full stack without the {@code skip}ped modules; naming a module that is not part of it is a usage error. */
    public static List<ServiceSpec> without(int routerPort, Set<String> skip) {
        return without(defaults(routerPort), skip);
    }

    /** {@link #replicated} without the {@code skip}ped modules. */
    public static List<ServiceSpec> without(int routerPort, Set<String> skip, int replicas, Path dataDir) {
        return without(replicated(routerPort, replicas, dataDir), skip);
    }

    private static List<ServiceSpec> without(List<ServiceSpec> all, Set<String> skip) {
        List<String> unknown = skip.stream().filter(m -> all.stream().noneMatch(s -> s.module().equals(m))).sorted()
                .toList();
        if (!unknown.isEmpty()) {
            throw new UsageException("--skip: no such service " + unknown + "; the services are "
                    + all.stream().map(ServiceSpec::module).distinct().toList());
        }
        return all.stream().filter(s -> !skip.contains(s.module())).toList();
    }
}
