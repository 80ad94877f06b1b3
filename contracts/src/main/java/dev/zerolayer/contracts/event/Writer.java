package dev.zerolayer.contracts.event;

import static dev.zerolayer.contracts.event.EventChecks.nonNegative;
import static dev.zerolayer.contracts.event.EventChecks.text;

/**
 * Which replica wrote a keyed record and under which generation of its consumer group's assignment: for any key, the
 * writer changes only to a higher generation, never back.
 *
 * @param replica    the writing process (host name and pid unless configured)
 * @param generation the consumer group generation under which the replica owned the key's partition
 */
public record Writer(String replica, long generation) {

    public Writer {
        text(replica, "writer.replica");
        nonNegative(generation, "writer.generation");
    }
}
