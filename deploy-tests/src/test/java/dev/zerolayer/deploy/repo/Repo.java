package dev.zerolayer.deploy.repo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The repository the tests run in: its root (found upwards from the working directory) and its YAML files. */
public final class Repo {

    private Repo() {
    }

    /** The repository root: the nearest folder upwards that holds both {@code pom.xml} and {@code docker-compose.yml}. */
    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isRegularFile(dir.resolve("docker-compose.yml"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("repository root not found above " + Path.of("").toAbsolutePath());
    }

    public static Path file(String relative) {
        Path path = root().resolve(relative);
        if (!Files.exists(path)) {
            throw new IllegalStateException("missing " + relative);
        }
        return path;
    }

    public static String read(String relative) {
        try {
            return Files.readString(file(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One YAML document as maps and lists, with anchors, aliases and merge keys resolved (as Compose does). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> yaml(String text) {
        Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        return loaded == null ? Map.of() : (Map<String, Object>) loaded;
    }

    /** Every non-empty document of a multi-document YAML stream (e.g. rendered Helm output). */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> yamlDocuments(String text) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text)) {
            if (doc instanceof Map<?, ?> map && !map.isEmpty()) {
                documents.add((Map<String, Object>) map);
            }
        }
        return documents;
    }

    /** The value at a dotted path of nested maps ({@code a.b.c}), or null. */
    @SuppressWarnings("unchecked")
    public static Object at(Object node, String dottedPath) {
        Object current = node;
        for (String part : dottedPath.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = ((Map<String, Object>) map).get(part);
        }
        return current;
    }
}
