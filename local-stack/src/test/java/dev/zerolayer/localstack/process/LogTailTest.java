package dev.zerolayer.localstack.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @TempDir
    Path dir;

    @Test
    void givesTheLastLines() throws Exception {
        Path log = dir.resolve("svc.log");
        Files.writeString(log, IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i)
                .collect(Collectors.joining("\n", "", "\n")));

        assertThat(LogTail.of(log, 3)).containsExactly("line 98", "line 99", "line 100");
    }

    @Test
    void saysSoWhenThereIsNoLog() {
        assertThat(LogTail.of(dir.resolve("none.log"), 3)).singleElement().asString().startsWith("(no log at ");
    }
}
