package dev.zerolayer.platform.leader;

import java.net.URI;
import java.util.Optional;

/**
 * Who leads a service's election and where its replica answers HTTP: written by the leader as the metadata of its
 * election group's commit, so a follower can pass it an admin write.
 *
 * @param generation the election group's generation of the leader's term
 * @param replica    the leader's replica id
 * @param url        the leader's base URL (scheme, host, port)
 */
public record LeaderAnnouncement(long generation, String replica, URI url) {

    private static final String PREFIX = "zl-leader/1";

    public LeaderAnnouncement {
        if (replica == null || replica.isBlank()) {
            throw new IllegalArgumentException("replica must not be blank");
        }
        if (url == null || !url.isAbsolute()) {
            throw new IllegalArgumentException("url must be absolute: " + url);
        }
    }

    /** The commit metadata form: prefix, generation, URL, then the replica id (the only part that may hold a space). */
    public String encode() {
        return PREFIX + " " + generation + " " + url + " " + replica;
    }

    /** The announcement in {@code metadata}, or empty when it holds none (a commit by a replica of an older version). */
    public static Optional<LeaderAnnouncement> parse(String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX + " ")) {
            return Optional.empty();
        }
        String[] parts = metadata.split(" ", 4);
        if (parts.length < 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LeaderAnnouncement(Long.parseLong(parts[1]), parts[3], URI.create(parts[2])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
