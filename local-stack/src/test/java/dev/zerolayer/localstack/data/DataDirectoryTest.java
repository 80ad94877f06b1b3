package dev.zerolayer.localstack.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void keepsDataWithoutFreshAndWipesItWithFresh() throws Exception {
        Path dir = tmp.resolve("data");
        DataDirectory.prepare(dir, false);
        Files.createDirectories(dir.resolve("kafka/log"));
        Files.writeString(dir.resolve("kafka/log/meta.properties"), "x");

        DataDirectory.prepare(dir, false);
        assertThat(dir.resolve("kafka/log/meta.properties")).exists();

        DataDirectory.prepare(dir, true);
        assertThat(dir.resolve("kafka")).doesNotExist();
        assertThat(dir.resolve(DataDirectory.MARKER)).exists();
    }

    @Test
    void refusesToWipeADirectoryItDidNotCreate() throws Exception {
        Path precious = tmp.resolve("home");
        Files.createDirectories(precious);
        Files.writeString(precious.resolve("notes.txt"), "keep me");

        assertThatThrownBy(() -> DataDirectory.prepare(precious, true))
                .hasMessageContaining("refusing to wipe " + precious);
        assertThat(precious.resolve("notes.txt")).exists();
    }

    @Test
    void anEmptyDirectoryMayBeUsedFresh() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));

        DataDirectory.prepare(empty, true);

        assertThat(empty.resolve(DataDirectory.MARKER)).exists();
    }
}
