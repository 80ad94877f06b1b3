package dev.zerolayer.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.zerolayer.router.wire.ApiException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The keys file: read at start (refused start when bad), a good new version swapped in whole, a bad one refused by line
 * number with the keys in force kept, a vanished file keeping them too, a same-size rewrite within the timestamp's
 * granularity still seen, and the poller applying a change on its own; the log never shows a key.
 */
class ApiKeysFileTest {

    private static final InetSocketAddress REMOTE = new InetSocketAddress("192.0.2.7", 5000);

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ApiKeysFile.class);

    @BeforeEach
    void captureLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        logger.detachAppender(logs);
    }

    /** Writes the file beside and renames it into place, as a careful operator or a secret mount does. */
    private Path write(Path file, String... lines) throws IOException {
        Path next = dir.resolve("next.tmp");
        Files.write(next, List.of(lines));
        return Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static boolean accepts(ApiKeyAuthenticator auth, String key) {
        try {
            auth.authenticate(key, null, REMOTE);
            return true;
        } catch (ApiException e) {
            return false;
        }
    }

    private String allLogs() {
        return String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    }

    @Test
    void appliesAGoodVersionWholeAndRefusesABadOneKeepingTheKeysInForce() throws Exception {
        Path file = write(dir.resolve("keys"), "# client keys", "key-alpha-1", ApiKeyEntries.hashedEntry("key-beta-2"));
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("key-fixed", true);
        try (ApiKeysFile keys = new ApiKeysFile(file, auth, Clock.systemUTC())) {
            assertThat(accepts(auth, "key-alpha-1")).isTrue();
            assertThat(accepts(auth, "key-beta-2")).isTrue();
            assertThat(accepts(auth, "key-fixed")).isTrue();
            assertThat(auth.keyCount()).isEqualTo(3);
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.UNCHANGED);

            // rotation: alpha revoked, gamma added, beta kept
            write(file, ApiKeyEntries.hashedEntry("key-beta-2"), "", "key-gamma-3");
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.APPLIED);
            assertThat(accepts(auth, "key-alpha-1")).isFalse();
            assertThat(accepts(auth, "key-beta-2")).isTrue();
            assertThat(accepts(auth, "key-gamma-3")).isTrue();
            assertThat(accepts(auth, "key-fixed")).isTrue();

            // a bad line anywhere refuses the whole version: nothing of it applies, the previous keys stay
            write(file, "key-delta-4", "sha256:not-a-hash-secret-5", "key-epsilon-6");
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.REFUSED);
            assertThat(accepts(auth, "key-delta-4")).isFalse();
            assertThat(accepts(auth, "key-epsilon-6")).isFalse();
            assertThat(accepts(auth, "key-gamma-3")).isTrue();
            assertThat(keys.refusals()).isEqualTo(1);
            // the refused version is not refused again on every poll
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.UNCHANGED);
            assertThat(keys.refusals()).isEqualTo(1);

            // a vanished file keeps the keys in force
            Files.delete(file);
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.MISSING);
            assertThat(accepts(auth, "key-gamma-3")).isTrue();

            // an emptied file revokes every file key (the configured one stays)
            write(file, "# nobody");
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.APPLIED);
            assertThat(accepts(auth, "key-gamma-3")).isFalse();
            assertThat(accepts(auth, "key-beta-2")).isFalse();
            assertThat(accepts(auth, "key-fixed")).isTrue();
            assertThat(auth.keyCount()).isEqualTo(1);
        }
        String log = allLogs();
        assertThat(log).contains("line 2").contains("2 key(s) from the file").contains("3 in force");
        for (String secret : List.of("alpha", "beta", "gamma", "delta", "epsilon", "fixed", "not-a-hash",
                ApiKeyEntries.hashedEntry("key-beta-2").substring(7))) {
            assertThat(log).doesNotContain(secret);
        }
    }

    @Test
    void aSameSizeRewriteWithAnUnchangedTimestampIsStillSeen() throws Exception {
        Path file = dir.resolve("keys");
        Files.writeString(file, "key-aaaa\n");
        FileTime stamp = Files.getLastModifiedTime(file);
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("", true);
        try (ApiKeysFile keys = new ApiKeysFile(file, auth, Clock.systemUTC())) {
            assertThat(accepts(auth, "key-aaaa")).isTrue();
            // rewritten in place, same size, the timestamp put back: only the content tells
            Files.writeString(file, "key-bbbb\n");
            Files.setLastModifiedTime(file, stamp);
            assertThat(keys.check()).isEqualTo(ApiKeysFile.Outcome.APPLIED);
            assertThat(accepts(auth, "key-aaaa")).isFalse();
            assertThat(accepts(auth, "key-bbbb")).isTrue();
        }
    }

    @Test
    void thePollerAppliesAChangeWithoutBeingAsked() throws Exception {
        Path file = write(dir.resolve("keys"), "key-first");
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("", true);
        try (ApiKeysFile keys = new ApiKeysFile(file, auth, Clock.systemUTC()).watchEvery(Duration.ofMillis(50))) {
            write(file, "key-second");
            await().atMost(Duration.ofSeconds(5)).until(() -> accepts(auth, "key-second"));
            assertThat(accepts(auth, "key-first")).isFalse();
            assertThat(keys.reloads()).isEqualTo(2);
        }
    }

    @Test
    void aMissingOrBadFileStopsTheStart() throws Exception {
        ApiKeyAuthenticator auth = new ApiKeyAuthenticator("", true);
        assertThatThrownBy(() -> new ApiKeysFile(dir.resolve("absent"), auth, Clock.systemUTC()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("missing");
        Path bad = write(dir.resolve("bad"), "key-ok", "key with-secret-blank");
        assertThatThrownBy(() -> new ApiKeysFile(bad, auth, Clock.systemUTC()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("bad line")
                .hasMessageNotContaining("secret");
        assertThat(allLogs()).contains("line 2").doesNotContain("secret");
        assertThat(auth.keyCount()).isZero();
    }
}
