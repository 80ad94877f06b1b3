package dev.zerolayer.simulator.faults;

import java.time.Instant;

/** A fault injected into one node: its type, intensity in [0,1] and the interval it lasts. */
public record ActiveFault(FaultType type, double intensity, Instant startedAt, Instant endsAt) {

    public ActiveFault {
        if (!(intensity >= 0.0 && intensity <= 1.0)) {
            throw new IllegalArgumentException("intensity must be in [0,1], was " + intensity);
        }
        if (!endsAt.isAfter(startedAt)) {
            throw new IllegalArgumentException("a fault must last longer than zero");
        }
    }

    public boolean activeAt(Instant now) {
        return now.isBefore(endsAt);
    }
}
