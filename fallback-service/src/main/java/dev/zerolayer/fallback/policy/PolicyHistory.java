package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of policy versions, one JSON line per version in {@code <data-dir>/policy-history.jsonl}, appended
 * and forced to disk before a change is reported done; a line torn by a crash is cut off when the file is next opened.
 */
public class PolicyHistory {

    private static final Logger log = LoggerFactory.getLogger(PolicyHistory.class);
    static final String FILE = "policy-history.jsonl";

    private final Path file;

    public PolicyHistory(Path dataDir) {
        this.file = dataDir.resolve(FILE);
    }

    public Path file() {
        return file;
    }

    /** Every entry on disk, oldest first; a torn last line is removed from the file. */
    public synchronized List<HistoryEntry> load() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            if (end < bytes.length) {
                log.warn("{}: cutting a torn last line of {} bytes", file, bytes.length - end);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(end);
                    channel.force(true);
                }
            }
            List<HistoryEntry> entries = new ArrayList<>();
            String[] lines = new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) {
                    continue;
                }
                try {
                    entries.add(EventCodec.mapper().readValue(lines[i], HistoryEntry.class));
                } catch (RuntimeException e) {
                    log.error("{}: line {} is not a history entry and is skipped: {}", file, i + 1,
                            e.getClass().getSimpleName());
                }
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public synchronized void append(HistoryEntry entry) {
        byte[] line = (EventCodec.mapper().writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ByteBuffer buffer = ByteBuffer.wrap(line);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file, e);
        }
    }
}
