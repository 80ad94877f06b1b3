package dev.zerolayer.localstack.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The last lines of a child's log (reading at most its last 64 KiB), for the message that explains a failure. */
public final class LogTail {

    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    public static List<String> of(Path log, int lines) {
        if (!Files.isRegularFile(log)) {
            return List.of("(no log at " + log + ")");
        }
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long length = file.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[size];
            file.seek(length - size);
            file.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return List.of("(cannot read " + log + ": " + e.getMessage() + ")");
        }
    }
}
