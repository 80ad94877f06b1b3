package dev.zerolayer.routing.health;

import java.util.Collection;

/** Cluster health is the capacity-weighted mean of its nodes' scores; a node that takes no traffic counts as 0. */
public final class ClusterHealth {

    /** One node's share of its cluster: capacity and score (0 when not routable). */
    public record Member(int capacity, double score) {
    }

    private ClusterHealth() {
    }

    public static double of(Collection<Member> members) {
        long totalCapacity = 0;
        double weighted = 0;
        for (Member member : members) {
            totalCapacity += Math.max(0, member.capacity());
            weighted += Math.max(0, member.capacity()) * member.score();
        }
        return totalCapacity == 0 ? 0.0 : weighted / totalCapacity;
    }
}
