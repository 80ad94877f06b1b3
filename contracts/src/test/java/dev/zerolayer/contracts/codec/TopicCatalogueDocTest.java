package dev.zerolayer.contracts.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.topics.TopicSpec;
import dev.zerolayer.contracts.topics.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/topics.md carries the catalogue table exactly as the code defines it. Run with {@code -Dgolden.update=true} to
 * rewrite the table after changing the catalogue.
 */
class TopicCatalogueDocTest {

    private static final Path DOC = Path.of("../docs/topics.md");
    private static final String BEGIN = "<!-- catalogue:begin -->";
    private static final String END = "<!-- catalogue:end -->";

    static String table() {
        StringBuilder table = new StringBuilder();
        table.append("| topic | key | event | writer | readers | cleanup | partitions | retention |\n");
        table.append("|---|---|---|---|---|---|---|---|\n");
        for (TopicSpec<?> spec : Topics.ALL) {
            table.append("| `").append(spec.name()).append("` | ").append(spec.keyMeaning()).append(" | `")
                    .append(spec.eventType().getSimpleName()).append("` | ").append(spec.writer()).append(" | ")
                    .append(spec.readers().isEmpty() ? "(operators)" : String.join(", ", spec.readers()))
                    .append(" | ").append(spec.cleanupPolicy().kafkaValue()).append(" | ").append(spec.partitions())
                    .append(" | ").append(spec.compacted() ? "latest per key" : spec.retention().toHours() + " h")
                    .append(" |\n");
        }
        return table.toString();
    }

    @Test
    void docTableMatchesTheCatalogue() throws Exception {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("markers in docs/topics.md").isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String expected = "\n" + table();
        if (Boolean.getBoolean("golden.update")) {
            doc = doc.substring(0, begin + BEGIN.length()) + expected + doc.substring(end);
            Files.writeString(DOC, doc);
        }
        assertThat(doc.substring(begin + BEGIN.length(), end)).isEqualTo(expected);
    }
}
