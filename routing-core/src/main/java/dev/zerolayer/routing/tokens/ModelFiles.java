package dev.zerolayer.routing.tokens;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The files of a Hugging Face model directory, read by name from a local directory or from a base URL the operator
 * serves ({@code http(s)://host/models/qwen3/} + {@code tokenizer.json}); a file that is not there is empty, never an
 * error, and no file may be larger than {@link #MAX_BYTES}.
 */
public final class ModelFiles {

    /** The largest file read (a 150k-token vocabulary's {@code tokenizer.json} is about 11 MB). */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String location;
    private final Path directory;
    private final URI base;

    private ModelFiles(String location, Path directory, URI base) {
        this.location = location;
        this.directory = directory;
        this.base = base;
    }

    /**
     * A location: an {@code http://} or {@code https://} URL (a trailing slash is added), a {@code file:} URL, or a
     * directory path.
     *
     * @throws IllegalArgumentException when the location is blank or not a URL or path
     */
    public static ModelFiles at(String location) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("tokenizer location is blank");
        }
        String trimmed = location.trim();
        String lower = trimmed.toLowerCase(java.util.Locale.ROOT);
        try {
            if (lower.startsWith("http://") || lower.startsWith("https://")) {
                return new ModelFiles(trimmed, null, URI.create(trimmed.endsWith("/") ? trimmed : trimmed + "/"));
            }
            if (lower.startsWith("file:")) {
                return new ModelFiles(trimmed, Path.of(URI.create(trimmed)), null);
            }
            return new ModelFiles(trimmed, Path.of(trimmed), null);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("tokenizer location '" + trimmed + "' is neither a URL nor a path: "
                    + e.getMessage(), e);
        }
    }

    /** The location as given. */
    public String location() {
        return location;
    }

    /**
     * A file's text (UTF-8), or empty when the directory or server has no such file.
     *
     * @throws IOException when the file exists but cannot be read, is too large, or the server fails
     */
    public Optional<String> read(String name) throws IOException {
        Objects.requireNonNull(name, "name");
        if (directory != null) {
            Path file = directory.resolve(name);
            try {
                if (Files.size(file) > MAX_BYTES) {
                    throw new IOException(file + " is larger than " + MAX_BYTES + " bytes");
                }
                return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
        }
        return fetch(base.resolve(name));
    }

    private static Optional<String> fetch(URI uri) throws IOException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() == 404) {
                    return Optional.empty();
                }
                if (response.statusCode() / 100 != 2) {
                    throw new IOException("GET " + uri + " answered " + response.statusCode());
                }
                byte[] bytes = body.readNBytes((int) MAX_BYTES + 1);
                if (bytes.length > MAX_BYTES) {
                    throw new IOException(uri + " is larger than " + MAX_BYTES + " bytes");
                }
                return Optional.of(new String(bytes, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + uri, e);
        }
    }

    @Override
    public String toString() {
        return location;
    }
}
