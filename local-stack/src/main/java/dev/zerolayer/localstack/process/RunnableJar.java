package dev.zerolayer.localstack.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** A service jar is usable only when it exists and its manifest names a Main-Class (a half-built jar is not). */
public final class RunnableJar {

    private RunnableJar() {
    }

    /** Why {@code jar} cannot be run, or empty when it can. */
    public static Optional<String> problem(Path jar) {
        if (!Files.isRegularFile(jar)) {
            return Optional.of("missing " + jar);
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null || manifest.getMainAttributes().getValue("Main-Class") == null) {
                return Optional.of("not a runnable jar (no Main-Class): " + jar);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("not a runnable jar (" + e.getMessage() + "): " + jar);
        }
    }
}
