package dev.zerolayer.localstack.credentials;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The one set of credentials every child gets: taken from {@code ZEROLAYER_API_KEYS} / {@code ZEROLAYER_ADMIN_TOKEN}
 * when set, otherwise generated (192 random bits, url-safe base64, {@code zl-} / {@code zla-} prefix).
 *
 * @param apiKeys    value for {@code ZEROLAYER_API_KEYS}
 * @param adminToken value for {@code ZEROLAYER_ADMIN_TOKEN}
 * @param generated  names of the variables that were generated, not taken from the environment
 */
public record Credentials(String apiKeys, String adminToken, List<String> generated) {

    public static final String API_KEYS = "ZEROLAYER_API_KEYS";
    public static final String ADMIN_TOKEN = "ZEROLAYER_ADMIN_TOKEN";

    private static final int RANDOM_BYTES = 24;

    public Credentials {
        generated = List.copyOf(generated);
    }

    /** Uses the environment's values where set (non-blank) and generates the rest. */
    public static Credentials resolve(Map<String, String> env, SecureRandom random) {
        List<String> generated = new ArrayList<>();
        String apiKeys = env.get(API_KEYS);
        if (apiKeys == null || apiKeys.isBlank()) {
            apiKeys = secret("zl-", random);
            generated.add(API_KEYS);
        }
        String adminToken = env.get(ADMIN_TOKEN);
        if (adminToken == null || adminToken.isBlank()) {
            adminToken = secret("zla-", random);
            generated.add(ADMIN_TOKEN);
        }
        return new Credentials(apiKeys, adminToken, generated);
    }

    /** The environment a child needs for these credentials. */
    public Map<String, String> asEnvironment() {
        return Map.of(API_KEYS, apiKeys, ADMIN_TOKEN, adminToken);
    }

    /** One {@code generated NAME=value} line per generated variable, to be printed once at start. */
    public List<String> generatedNotices() {
        return generated.stream().map(name -> "generated " + name + "=" + asEnvironment().get(name)).toList();
    }

    @Override
    public String toString() {
        return "Credentials[apiKeys=***, adminToken=***, generated=" + generated + "]";
    }

    private static String secret(String prefix, SecureRandom random) {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
