package dev.zerolayer.telemetry.health;

import java.time.Duration;
import java.time.Instant;

/**
 * The time the sample stream has reached: the latest record time applied, moved on by the wall-clock time since it was
 * applied, never ahead of the wall clock. Caught up, it is the wall clock; behind a backlog, it is as far behind as
 * the backlog; with no records at all, it runs on with the wall clock (so silence still means stale).
 */
final class StreamClock {

    private Instant latestRecord;
    private Instant appliedAt;

    /** A record written at {@code recordTime} was applied at {@code wallNow}. */
    synchronized void observe(Instant recordTime, Instant wallNow) {
        if (latestRecord == null || recordTime.isAfter(latestRecord)) {
            latestRecord = recordTime;
            appliedAt = wallNow;
        }
    }

    /** The stream time at {@code wallNow}: the wall clock until a record was applied. */
    synchronized Instant now(Instant wallNow) {
        if (latestRecord == null) {
            return wallNow;
        }
        Instant extrapolated = latestRecord.plus(Duration.between(appliedAt, wallNow));
        return extrapolated.isBefore(wallNow) ? extrapolated : wallNow;
    }
}
