package dev.zerolayer.localstack.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The stack's data directory carries a marker file; {@code --fresh} wipes only an empty directory or one carrying the
 * marker, never a directory the stack did not create.
 */
public final class DataDirectory {

    public static final String MARKER = ".zerolayer-data";

    private DataDirectory() {
    }

    /** Creates (and with {@code fresh} first wipes) the directory with its marker. */
    public static void prepare(Path dir, boolean fresh) {
        try {
            if (fresh && Files.exists(dir)) {
                if (!Files.exists(dir.resolve(MARKER)) && !isEmptyDirectory(dir)) {
                    throw new IllegalStateException("refusing to wipe " + dir + ": it is not a ZeroLayer data directory"
                            + " (no " + MARKER + " marker)");
                }
                deleteRecursively(dir);
            }
            Files.createDirectories(dir);
            Path marker = dir.resolve(MARKER);
            if (!Files.exists(marker)) {
                Files.writeString(marker, "ZeroLayer local-stack data; safe to delete with ./zerolayer up --fresh\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare data directory " + dir, e);
        }
    }

    private static boolean isEmptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
