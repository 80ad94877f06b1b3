package dev.zerolayer.fallback.policy;

/** One changed place between two policy versions: its JSON pointer and whether it was added, removed or changed. */
public record PolicyChange(String path, Kind kind) {

    /** What happened at the path. */
    public enum Kind {
        ADDED,
        REMOVED,
        CHANGED
    }
}
