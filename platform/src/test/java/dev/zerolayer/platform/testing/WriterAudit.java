package dev.zerolayer.platform.testing;

import dev.zerolayer.contracts.event.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that no key of a topic ever had two writers: in each key's records, in offset order, the generation never goes
 * down, and the replica changes only together with a rise of the generation (a replica writing on after another took
 * the key over is caught); a record without a writer is a violation too.
 */
public final class WriterAudit {

    private final Map<String, Writer> last = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private int records;

    /** Takes the next record of a key, in the key's offset order. */
    public void record(String key, Writer writer) {
        records++;
        if (writer == null) {
            violations.add(key + ": record without a writer");
            return;
        }
        Writer before = last.put(key, writer);
        if (before == null) {
            return;
        }
        if (writer.generation() < before.generation()) {
            violations.add(key + ": " + writer + " after " + before + " (generation went down)");
        } else if (!writer.replica().equals(before.replica()) && writer.generation() == before.generation()) {
            violations.add(key + ": " + writer + " after " + before + " (two writers in one generation)");
        }
    }

    public List<String> violations() {
        return List.copyOf(violations);
    }

    public int records() {
        return records;
    }

    /** The replicas that wrote each key's last record. */
    public Map<String, Writer> lastWriters() {
        return Map.copyOf(last);
    }
}
