package dev.zerolayer.fallback.monitor;

/** What a fallback rate is measured over; the prefix names the alert scope, e.g. {@code tier:sonnet}. */
public enum ScopeKind {
    /** Every counted decision. */
    ALL("all"),
    /** Decisions served (or attempted) on one tier. */
    TIER("tier"),
    /** Fallbacks of one reason, against every counted decision. */
    REASON("reason"),
    /** Decisions of one API key (the hashed key id of the decision event). */
    API_KEY("apiKey");

    private final String prefix;

    ScopeKind(String prefix) {
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    public String scope(String name) {
        return this == ALL ? prefix : prefix + ":" + name;
    }
}
