package dev.zerolayer.deploy.repo;

import dev.zerolayer.platform.config.ZeroLayerProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether an environment variable binds, by Spring Boot's relaxed rules (upper case, dots and dashes removed), to a
 * property of a {@code @ConfigurationProperties} record a service really has: platform's {@link ZeroLayerProperties}
 * or one declared in the module's own sources.
 */
public final class RelaxedNames {

    private static final Pattern PROPERTIES = Pattern.compile(
            "@ConfigurationProperties\\(\"([^\"]+)\"\\)\\s*public\\s+record\\s+\\w+\\s*\\(");
    private static final Pattern COMPONENT = Pattern.compile("(\\w+)\\s*(?:,|$)");

    private RelaxedNames() {
    }

    public static boolean bindsToAProperty(String module, String environmentVariable) {
        String wanted = normalise(environmentVariable);
        return properties(module).stream().anyMatch(p -> normalise(p).equals(wanted));
    }

    /** Every {@code prefix.component} the module's configuration records declare (platform's included). */
    public static List<String> properties(String module) {
        List<String> names = new ArrayList<>();
        Arrays.stream(ZeroLayerProperties.class.getRecordComponents())
                .forEach(c -> names.add("zerolayer." + c.getName()));
        try (Stream<Path> sources = Files.walk(Repo.file(module + "/src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                names.addAll(declared(Files.readString(source)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    static List<String> declared(String source) {
        List<String> names = new ArrayList<>();
        Matcher m = PROPERTIES.matcher(source);
        while (m.find()) {
            String header = header(source, m.end());
            Matcher component = COMPONENT.matcher(header);
            while (component.find()) {
                names.add(m.group(1) + "." + component.group(1));
            }
        }
        return names;
    }

    /** The record header's text after its opening parenthesis, with string literals and annotation arguments removed. */
    private static String header(String source, int start) {
        StringBuilder out = new StringBuilder();
        int depth = 1;
        boolean inString = false;
        for (int i = start; i < source.length() && depth > 0; i++) {
            char c = source.charAt(i);
            if (inString) {
                inString = c != '"' || source.charAt(i - 1) == '\\';
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case '(', '<', '{' -> depth++;
                case ')', '>', '}' -> depth--;
                default -> {
                    if (depth == 1) {
                        out.append(c);
                    }
                }
            }
            if (depth == 1 && (c == ')' || c == '>' || c == '}')) {
                out.append(' ');
            }
        }
        return out.toString().replace('\n', ' ').trim();
    }

    private static String normalise(String name) {
        return name.replace(".", "").replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }
}
