package dev.zerolayer.router.dispatch;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The credentials nodes need, by the name their registration gives ({@code credentialRef}): each a header line
 * ({@code authorization: Bearer …}, {@code x-api-key: …}) from the router's configuration, so no secret travels on a
 * topic and no client credential ever reaches a node. A node naming a credential the router does not hold is not
 * called (its attempt fails and the next node is tried).
 */
public final class NodeCredentials {

    private final Map<String, Map.Entry<String, String>> headers = new LinkedHashMap<>();

    /** @param lines credential name to header line ({@code Name: value}) */
    public NodeCredentials(Map<String, String> lines) {
        lines.forEach((name, line) -> {
            int colon = line.indexOf(':');
            if (colon <= 0 || line.substring(0, colon).isBlank() || line.substring(colon + 1).isBlank()) {
                throw new IllegalArgumentException("upstream credential '" + name
                        + "' must be a header line, 'Name: value'");
            }
            headers.put(name, new AbstractMap.SimpleImmutableEntry<>(line.substring(0, colon).trim(),
                    line.substring(colon + 1).trim()));
        });
    }

    public static NodeCredentials none() {
        return new NodeCredentials(Map.of());
    }

    /**
     * The header a node's registration asks for (null when it names none).
     *
     * @throws UpstreamFailure when it names a credential this router does not hold
     */
    public Map.Entry<String, String> header(String credentialRef) {
        if (credentialRef == null) {
            return null;
        }
        Map.Entry<String, String> header = headers.get(credentialRef);
        if (header == null) {
            throw UpstreamFailure.of("node_credential_missing");
        }
        return header;
    }
}
