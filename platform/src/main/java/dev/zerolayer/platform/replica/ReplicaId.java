package dev.zerolayer.platform.replica;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * This process's name among the replicas of its service, stamped on the records it writes: {@code zerolayer.replica-id}
 * when set, otherwise host name and pid (a pod's host name is its name; a restart is a new pid, so a new replica).
 *
 * @param value the name
 */
public record ReplicaId(String value) {

    public ReplicaId {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("replica id must not be blank");
        }
    }

    /** The configured name, or host name and pid when none is. */
    public static ReplicaId of(String configured) {
        if (configured != null && !configured.isBlank()) {
            return new ReplicaId(configured.strip());
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return new ReplicaId(host + "-" + ProcessHandle.current().pid());
    }

    @Override
    public String toString() {
        return value;
    }
}
