package dev.zerolayer.deploy.repo;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a service's own configuration says, read from its module's {@code application.yml} and platform's
 * {@code zerolayer-defaults.yml}: its port and the variable that sets it, every {@code ${VAR:default}} it reads, and
 * its actuator health groups.
 *
 * @param module       Maven module (and image) name
 * @param portVariable environment variable of {@code server.port}
 * @param defaultPort  port when that variable is unset
 * @param variables    every placeholder variable the configuration reads (upper-case ones: environment variables)
 * @param healthGroups actuator health groups served under {@code /actuator/health/<group>}
 * @param exposed      actuator endpoints exposed over HTTP
 */
public record ServiceConfig(String module, String portVariable, int defaultPort, Set<String> variables,
        Set<String> healthGroups, Set<String> exposed) {

    /** The five services, the simulator and the web console, as deployed. */
    public static final List<String> MODULES = List.of("router-service", "telemetry-service", "complexity-service",
            "cache-service", "fallback-service", "node-simulator", "console-service");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.\\-]+)(?::([^}]*))?}");

    public static Map<String, ServiceConfig> all() {
        Map<String, ServiceConfig> configs = new LinkedHashMap<>();
        MODULES.forEach(module -> configs.put(module, of(module)));
        return configs;
    }

    @SuppressWarnings("unchecked")
    public static ServiceConfig of(String module) {
        String appText = Repo.read(module + "/src/main/resources/application.yml");
        String defaultsText = Repo.read("platform/src/main/resources/zerolayer-defaults.yml");
        Map<String, Object> app = Repo.yaml(appText);
        Map<String, Object> defaults = Repo.yaml(defaultsText);

        Matcher port = PLACEHOLDER.matcher(String.valueOf(Repo.at(app, "server.port")));
        if (!port.matches()) {
            throw new IllegalStateException(module + ": server.port is not a ${VAR:default} placeholder");
        }
        Set<String> variables = new LinkedHashSet<>();
        for (String text : List.of(appText, defaultsText)) {
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                if (m.group(1).equals(m.group(1).toUpperCase())) {
                    variables.add(m.group(1));
                }
            }
        }
        Set<String> groups = new LinkedHashSet<>();
        Object management = Repo.at(defaults, "management");
        if (Boolean.TRUE.equals(Repo.at(management, "endpoint.health.probes.enabled"))) {
            groups.add("liveness");
            groups.add("readiness");
        }
        Object declared = Repo.at(management, "endpoint.health.group");
        if (declared instanceof Map<?, ?> map) {
            map.keySet().forEach(k -> groups.add(String.valueOf(k)));
        }
        Set<String> exposed = new LinkedHashSet<>(List.of(
                String.valueOf(Repo.at(management, "endpoints.web.exposure.include")).split(",")));
        return new ServiceConfig(module, port.group(1), Integer.parseInt(port.group(2)), variables, groups, exposed);
    }
}
