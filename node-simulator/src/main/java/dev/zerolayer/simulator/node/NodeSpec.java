package dev.zerolayer.simulator.node;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.latency.HardwareProfile;
import java.util.Objects;

/**
 * Who one simulated node is: id, tier, cluster, the cluster it stands by for, advertised protocol, model, hardware
 * profile, seed, whether its latency model is on, and where it listens (port 0: any free port, kept across restarts).
 */
public record NodeSpec(String id, String tier, String cluster, String standbyOf, UpstreamProtocol protocol,
        String model, HardwareProfile profile, long seed, boolean latency, String bindHost, String advertisedHost,
        int port) {

    public NodeSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }
}
