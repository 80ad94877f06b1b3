package dev.zerolayer.telemetry.health;

import java.time.Duration;
import java.time.Instant;

/**
 * The time the sample stream has reached: the latest record time applied, moved on by the wall-clock time since it was
 * applied, never ahead of the wall clock. Caught up, it is the wall clock; behind a backlog, it is as far behind as
 * the backlog, and waits up to a pause for the next record before it moves on (a consumer that stalls mid-backlog, on
 * a slow start or a busy machine, is not silence); with no records at all, it runs on with the wall clock (so silence
 * still means stale).
 */
final class StreamClock {

    /** A record applied this long after it was written finds the consumer behind its stream. */
    static final Duration BEHIND = Duration.ofSeconds(1);

    private final Duration backlogPause;
    private Instant latestRecord;
    private Instant appliedAt;
    private boolean behind;

    StreamClock() {
        this(Duration.ZERO);
    }

    /** @param backlogPause how long the clock waits for the next record, behind a backlog, before it moves on */
    StreamClock(Duration backlogPause) {
        this.backlogPause = backlogPause;
    }

    /** A record written at {@code recordTime} was applied at {@code wallNow}. */
    synchronized void observe(Instant recordTime, Instant wallNow) {
        if (latestRecord == null || recordTime.isAfter(latestRecord)) {
            latestRecord = recordTime;
            appliedAt = wallNow;
            behind = Duration.between(recordTime, wallNow).compareTo(BEHIND) > 0;
        }
    }

    /** The stream time at {@code wallNow}: the wall clock until a record was applied. */
    synchronized Instant now(Instant wallNow) {
        if (latestRecord == null) {
            return wallNow;
        }
        Duration since = Duration.between(appliedAt, wallNow);
        if (behind) {
            since = since.minus(backlogPause);
            since = since.isNegative() ? Duration.ZERO : since;
        }
        Instant extrapolated = latestRecord.plus(since);
        return extrapolated.isBefore(wallNow) ? extrapolated : wallNow;
    }
}
