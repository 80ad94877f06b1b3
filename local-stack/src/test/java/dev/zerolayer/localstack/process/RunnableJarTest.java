package dev.zerolayer.localstack.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnableJarTest {

    @TempDir
    Path dir;

    @Test
    void aJarWithAMainClassIsRunnable() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "demo.Main");
        Path jar = dir.resolve("ok.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // manifest only
        }

        assertThat(RunnableJar.problem(jar)).isEmpty();
    }

    @Test
    void missingEmptyAndManifestlessJarsAreNamed() throws Exception {
        Path empty = dir.resolve("empty.jar");
        try (ZipOutputStream ignored = new ZipOutputStream(Files.newOutputStream(empty))) {
            // what a module without a main class repackages to
        }
        Path garbage = Files.writeString(dir.resolve("garbage.jar"), "not a zip");

        assertThat(RunnableJar.problem(dir.resolve("none.jar"))).contains("missing " + dir.resolve("none.jar"));
        assertThat(RunnableJar.problem(empty)).hasValueSatisfying(p -> assertThat(p).startsWith("not a runnable jar"));
        assertThat(RunnableJar.problem(garbage)).hasValueSatisfying(p -> assertThat(p).startsWith("not a runnable jar"));
    }
}
