package dev.zerolayer.simulator.node;

import java.util.Locale;

/** What a node is doing: serving, stalled in a warm-up, or crashed (its port refuses connections). */
public enum NodeStatus {
    SERVING,
    WARMING,
    CRASHED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
