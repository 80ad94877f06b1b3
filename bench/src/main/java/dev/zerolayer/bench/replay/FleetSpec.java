package dev.zerolayer.bench.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated fleet with the cluster names of {@code PolicyDocument.defaults()}: node-simulator's default fleet
 * (docs/simulator.md) — 2 opus A100-80Gx8, 2 sonnet A100-40Gx4 plus 1 sonnet standby, 3 haiku L4x2 — or the same
 * profiles in other counts (always one sonnet standby).
 */
public record FleetSpec(List<Member> members) {

    /** One node: id, tier, cluster and hardware profile. */
    public record Member(String id, String tier, String cluster, NodeProfile profile) {
    }

    public FleetSpec {
        members = List.copyOf(members);
    }

    public static FleetSpec simulatorDefault() {
        return of(2, 2, 3);
    }

    /** {@code opus} A100-80Gx8, {@code sonnet} A100-40Gx4 plus one sonnet standby, {@code haiku} L4x2 nodes. */
    public static FleetSpec of(int opus, int sonnet, int haiku) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < opus; i++) {
            members.add(new Member("opus-a100-80g-" + i, "opus", "opus-a100-80g", NodeProfile.A100_80G_X8));
        }
        for (int i = 0; i < sonnet; i++) {
            members.add(new Member("sonnet-a100-40g-" + i, "sonnet", "sonnet-a100-40g", NodeProfile.A100_40G_X4));
        }
        members.add(new Member("sonnet-standby-0", "sonnet", "sonnet-standby", NodeProfile.A100_40G_X4));
        for (int i = 0; i < haiku; i++) {
            members.add(new Member("haiku-l4-" + i, "haiku", "haiku-l4", NodeProfile.L4_X2));
        }
        return new FleetSpec(members);
    }

    /**
     * This fleet with every other node of the sonnet primary cluster (the odd ones) on {@code A10Gx4} instead of
     * {@code A100-40Gx4}, plus one more {@code A10Gx4} node: one tier of mixed speeds.
     */
    public FleetSpec heterogeneousSonnet() {
        List<Member> mixed = new ArrayList<>();
        int sonnet = 0;
        for (Member m : members) {
            if (m.cluster().equals("sonnet-a100-40g")) {
                mixed.add(sonnet % 2 == 1 ? new Member(m.id(), m.tier(), m.cluster(), NodeProfile.A10G_X4) : m);
                sonnet++;
            } else {
                mixed.add(m);
            }
        }
        int at = 0;
        for (int i = 0; i < mixed.size(); i++) {
            if (mixed.get(i).cluster().equals("sonnet-a100-40g")) {
                at = i + 1;
            }
        }
        mixed.add(at, new Member("sonnet-a100-40g-" + sonnet, "sonnet", "sonnet-a100-40g", NodeProfile.A10G_X4));
        return new FleetSpec(mixed);
    }

    /** Nodes of a tier's primary cluster (standby excluded). */
    public long primaryCount(String tier) {
        return members.stream().filter(m -> m.tier().equals(tier) && !m.cluster().endsWith("-standby")).count();
    }
}
