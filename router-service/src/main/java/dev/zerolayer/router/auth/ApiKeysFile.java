package dev.zerolayer.router.auth;

import dev.zerolayer.router.state.SessionKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client-keys file ({@code zerolayer.router.api-keys-file}), re-read when it changes (polled): a file whose every
 * line is good replaces the file's keys in one swap; a file with a bad line is refused as a whole, logged with that
 * line's number (never its content), and the keys in force stay. Only counts are logged.
 *
 * <p>A change is seen by the file's modification time, size and identity (a file renamed into place is another file);
 * a file read while its modification time was still recent is read again on later polls, so a rewrite within the
 * file system's timestamp granularity is not missed. A file that disappears keeps the keys in force (an editor may
 * delete before it writes): to revoke every file key, empty the file.
 */
public class ApiKeysFile implements AutoCloseable {

    /** What one check of the file did. */
    public enum Outcome { UNCHANGED, APPLIED, REFUSED, MISSING }

    private static final Logger log = LoggerFactory.getLogger(ApiKeysFile.class);
    /** A file modified this recently when read may change again without a visible stamp change. */
    private static final Duration RACY = Duration.ofSeconds(2);

    private record Stamp(long modifiedMillis, long size, Object fileKey) {
    }

    private final Path path;
    private final ApiKeyAuthenticator authenticator;
    private final Clock clock;
    private final AtomicLong refusals = new AtomicLong();
    private final AtomicLong reloads = new AtomicLong();
    private Stamp seen;
    private byte[] seenDigest;
    private boolean racy;
    private boolean missingLogged;
    private ScheduledExecutorService poller;

    /**
     * Reads the file once, now.
     *
     * @throws IllegalStateException when the file is missing, unreadable or has a bad line (the router does not start
     *                               without its keys)
     */
    public ApiKeysFile(Path path, ApiKeyAuthenticator authenticator, Clock clock) {
        this.path = Objects.requireNonNull(path);
        this.authenticator = authenticator;
        this.clock = clock;
        Outcome first = check();
        if (first != Outcome.APPLIED) {
            throw new IllegalStateException("client keys file " + path + " "
                    + (first == Outcome.MISSING ? "is missing or unreadable" : "has a bad line (see the log)"));
        }
    }

    /** Polls the file every {@code interval} on a daemon thread until {@link #close()}. */
    public synchronized ApiKeysFile watchEvery(Duration interval) {
        if (poller == null) {
            poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "api-keys-file");
                thread.setDaemon(true);
                return thread;
            });
            long millis = Math.max(10, interval.toMillis());
            poller.scheduleWithFixedDelay(() -> {
                try {
                    check();
                } catch (RuntimeException e) {
                    log.error("client keys file check failed: {}", e.getClass().getSimpleName());
                }
            }, millis, millis, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** Checks the file once: applies it when it changed and is good. */
    public synchronized Outcome check() {
        Stamp stamp;
        byte[] bytes;
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            stamp = new Stamp(attributes.lastModifiedTime().toMillis(), attributes.size(), attributes.fileKey());
            if (stamp.equals(seen) && !racy) {
                return Outcome.UNCHANGED;
            }
            Instant readAt = clock.instant();
            bytes = Files.readAllBytes(path);
            racy = Duration.between(Instant.ofEpochMilli(stamp.modifiedMillis()), readAt).compareTo(RACY) < 0;
        } catch (NoSuchFileException e) {
            return missing("is missing");
        } catch (IOException e) {
            return missing("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        missingLogged = false;
        seen = stamp;
        byte[] digest = SessionKeys.sha256(bytes);
        if (seenDigest != null && MessageDigest.isEqual(digest, seenDigest)) {
            return Outcome.UNCHANGED;
        }
        seenDigest = digest;
        List<byte[]> hashes;
        try {
            hashes = ApiKeyEntries.parseLines(new String(bytes, StandardCharsets.UTF_8).lines().toList());
        } catch (ApiKeyEntries.InvalidEntryException e) {
            refusals.incrementAndGet();
            log.error("client keys file {} refused at {}; the {} key(s) in force stay", path, e.getMessage(),
                    authenticator.keyCount());
            return Outcome.REFUSED;
        }
        int before = authenticator.keyCount();
        int fromFile = authenticator.replaceFileKeys(distinct(hashes));
        reloads.incrementAndGet();
        log.info("client keys file {} applied: {} key(s) from the file, {} in force (was {})", path, fromFile,
                authenticator.keyCount(), before);
        return Outcome.APPLIED;
    }

    private Outcome missing(String why) {
        if (!missingLogged) {
            log.warn("client keys file {} {}; the {} key(s) in force stay", path, why, authenticator.keyCount());
            missingLogged = true;
        }
        seen = null;
        return Outcome.MISSING;
    }

    private static List<byte[]> distinct(List<byte[]> hashes) {
        return hashes.stream().map(Key::new).distinct().map(Key::hash).toList();
    }

    /** A hash with value equality, for dropping repeated lines. */
    private record Key(byte[] hash) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Arrays.equals(hash, key.hash);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(hash);
        }
    }

    /** Files refused since start (a bad line). */
    public long refusals() {
        return refusals.get();
    }

    /** Files applied since start, the first read included. */
    public long reloads() {
        return reloads.get();
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
    }
}
