package dev.zerolayer.routing.limits;

import java.util.Arrays;

/**
 * One replica's part of a limit shared by replicas, max-min fair by demand: a replica asking less than an equal part
 * gets what it asks, the others split the rest equally, and what nobody asks for is split equally among all.
 */
public final class FairShare {

    private FairShare() {
    }

    /**
     * @param limit the limit across all replicas (per second)
     * @param own   this replica's demand (per second)
     * @param peers the other replicas' demands
     * @return this replica's part; the parts of all replicas, each computed from the same demands, sum to {@code limit}
     */
    public static double of(double limit, double own, double[] peers) {
        if (!(limit >= 0) || !(own >= 0)) {
            throw new IllegalArgumentException("limit and demand must be >= 0");
        }
        double[] demands = Arrays.copyOf(peers, peers.length + 1);
        demands[peers.length] = own;
        for (double demand : demands) {
            if (!(demand >= 0)) {
                throw new IllegalArgumentException("demand must be >= 0");
            }
        }
        Arrays.sort(demands);
        double remaining = limit;
        int left = demands.length;
        for (double demand : demands) {
            double equal = remaining / left;
            if (demand > equal) {
                // from here on every replica asks for more than an equal part of what is left: each gets that part
                return Math.min(own, equal);
            }
            remaining -= demand;
            left--;
        }
        return own + remaining / demands.length;
    }
}
