package dev.zerolayer.router.decision;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.router.state.Fleet;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.ServedModels;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Where each served model's tokenizer named by a node stands (health component {@code servedModels}): loading, ready
 * (and whether its chat template renders here), or failed with the reason, with the nodes naming it; always UP, since
 * such nodes are then matched approximately, never wrongly. Also drops the models no node names any more.
 */
public class ServedModelsHealth implements HealthIndicator {

    private final ServedModels<ServedModel> models;
    private final Fleet fleet;

    public ServedModelsHealth(ServedModels<ServedModel> models, Fleet fleet) {
        this.models = models;
        this.fleet = fleet;
    }

    @Override
    public Health health() {
        Map<String, Set<String>> nodes = namedBy();
        Map<String, ServedModels.State> states = models.states();
        Health.Builder health = Health.up();
        Set<String> locations = new TreeSet<>(nodes.keySet());
        locations.addAll(states.keySet());
        for (String location : locations) {
            Map<String, Object> detail = new LinkedHashMap<>();
            ServedModels.State state = states.getOrDefault(location, new ServedModels.Loading());
            if (state instanceof ServedModels.Ready ready) {
                detail.put("state", "ready");
                String problem = ((ServedModel) ready.model()).templateProblem();
                detail.put("chatTemplate", problem == null ? "renders exactly" : problem);
            } else if (state instanceof ServedModels.Failed failed) {
                detail.put("state", "failed");
                detail.put("reason", failed.reason());
            } else {
                detail.put("state", states.containsKey(location) ? "loading" : "not asked for yet");
            }
            detail.put("nodes", new ArrayList<>(nodes.getOrDefault(location, Set.of())));
            health.withDetail(shown(location), detail);
        }
        return health.build();
    }

    /** Drops (and later closes) the served models no registered node names any more; returns how many. */
    public int retainNamed() {
        return models.retain(namedBy().keySet());
    }

    private Map<String, Set<String>> namedBy() {
        Map<String, Set<String>> nodes = new TreeMap<>();
        for (NodeRegistration node : fleet.registrations()) {
            if (node.prefixCache() != null && node.prefixCache().tokenizer() != null) {
                nodes.computeIfAbsent(node.prefixCache().tokenizer(), l -> new TreeSet<>()).add(node.nodeId());
            }
        }
        return nodes;
    }

    /** A location without a URL's user information and query (they may carry credentials). */
    static String shown(String location) {
        try {
            URI uri = URI.create(location);
            if (uri.getScheme() != null && uri.getHost() != null) {
                return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null)
                        .toString();
            }
        } catch (IllegalArgumentException | java.net.URISyntaxException e) {
            // a directory path
        }
        return location;
    }
}
