package dev.zerolayer.localstack.process;

import dev.zerolayer.localstack.cli.UsageException;
import java.util.List;
import java.util.Set;

/** The full stack is the router on the chosen port and every other service on its fixed port 18081..18085. */
public final class StackServices {

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

    /** The full stack without the {@code skip}ped modules; naming a module that is not part of it is a usage error. */
    public static List<ServiceSpec> without(int routerPort, Set<String> skip) {
        List<ServiceSpec> all = defaults(routerPort);
        List<String> unknown = skip.stream().filter(m -> all.stream().noneMatch(s -> s.module().equals(m))).sorted()
                .toList();
        if (!unknown.isEmpty()) {
            throw new UsageException("--skip: no such service " + unknown + "; the services are "
                    + all.stream().map(ServiceSpec::module).toList());
        }
        return all.stream().filter(s -> !skip.contains(s.module())).toList();
    }
}
