package dev.zerolayer.simulator.faults;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The faults active on one node: at most one per type (a new one replaces the old), each until its end instant; an
 * expired fault reads as absent.
 */
public final class FaultBoard {

    private final Clock clock;
    private final Map<FaultType, ActiveFault> faults = new EnumMap<>(FaultType.class);

    public FaultBoard(Clock clock) {
        this.clock = clock;
    }

    public synchronized void put(ActiveFault fault) {
        faults.put(fault.type(), fault);
    }

    /** The fault of that type if it is active now. */
    public synchronized Optional<ActiveFault> active(FaultType type) {
        ActiveFault fault = faults.get(type);
        if (fault == null) {
            return Optional.empty();
        }
        if (!fault.activeAt(clock.instant())) {
            faults.remove(type);
            return Optional.empty();
        }
        return Optional.of(fault);
    }

    /** The intensity of that fault if active, else 0. */
    public double intensity(FaultType type) {
        return active(type).map(ActiveFault::intensity).orElse(0.0);
    }

    public boolean isActive(FaultType type) {
        return active(type).isPresent();
    }

    /** Removes one fault (when its end has come, or on request); says whether it was there. */
    public synchronized boolean remove(FaultType type) {
        return faults.remove(type) != null;
    }

    /** Removes that very fault if it is still the one of its type (its end has come); says whether it was. */
    public synchronized boolean remove(ActiveFault fault) {
        if (faults.get(fault.type()) == fault) {
            faults.remove(fault.type());
            return true;
        }
        return false;
    }

    /** Removes every fault and returns those that were active. */
    public synchronized List<ActiveFault> clear() {
        Instant now = clock.instant();
        List<ActiveFault> active = faults.values().stream().filter(f -> f.activeAt(now)).toList();
        faults.clear();
        return active;
    }

    /** The active faults, by type order. */
    public synchronized List<ActiveFault> list() {
        Instant now = clock.instant();
        faults.values().removeIf(f -> !f.activeAt(now));
        return faults.values().stream().sorted(Comparator.comparing(ActiveFault::type)).toList();
    }
}
