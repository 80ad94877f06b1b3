package dev.zerolayer.routing.health;

import dev.zerolayer.contracts.telemetry.TelemetrySample;

/**
 * A node's health score in [0,1], the weighted mean of five factors each in [0,1]: SM headroom (full up to 80 % SM,
 * zero at 100 %), NVLink headroom, framebuffer (1 − fragmentation), queue (1 / (1 + waiting per unit of capacity)) and
 * errors (0 while new XID errors are recent).
 */
public final class HealthScore {

    static final double SM_WEIGHT = 0.35;
    static final double NVLINK_WEIGHT = 0.15;
    static final double FRAGMENTATION_WEIGHT = 0.15;
    static final double QUEUE_WEIGHT = 0.25;
    static final double ERROR_WEIGHT = 0.10;

    private HealthScore() {
    }

    public static double of(TelemetrySample sample, int capacity, boolean recentErrors) {
        double sm = clamp((1.0 - sample.smActive()) / 0.20);
        double nvlink = 1.0 - sample.nvlinkSaturation();
        double framebuffer = 1.0 - sample.framebufferFragmentation();
        double queue = 1.0 / (1.0 + (double) sample.requestsWaiting() / Math.max(1, capacity));
        double errors = recentErrors ? 0.0 : 1.0;
        return clamp(SM_WEIGHT * sm + NVLINK_WEIGHT * nvlink + FRAGMENTATION_WEIGHT * framebuffer + QUEUE_WEIGHT * queue
                + ERROR_WEIGHT * errors);
    }

    static double clamp(double value) {
        return Math.max(0.0, Math.min(1.0, value));
    }
}
