package dev.zerolayer.fallback.policy;

import java.util.Locale;
import java.util.Optional;

/** The two ways a policy document is written: JSON ({@code application/json}) and YAML ({@code application/yaml}, {@code text/yaml}, {@code application/x-yaml}). */
public enum PolicyFormat {
    JSON("application/json"),
    YAML("application/yaml");

    private final String mediaType;

    PolicyFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The format of a Content-Type header value (parameters such as charset ignored), empty when it is neither. */
    public static Optional<PolicyFormat> of(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return switch (type) {
            case "application/json" -> Optional.of(JSON);
            case "application/yaml", "text/yaml", "application/x-yaml", "text/x-yaml" -> Optional.of(YAML);
            default -> Optional.empty();
        };
    }
}
