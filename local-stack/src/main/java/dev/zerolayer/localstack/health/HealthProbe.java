package dev.zerolayer.localstack.health;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A service is up when {@code GET /actuator/health} answers 200 and its overall (top-level) status is UP. */
public final class HealthProbe {

    private static final Pattern STRING_VALUE = Pattern.compile("\\s*:\\s*\"([A-Za-z_]+)\"");

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .build();

    public boolean up(String baseUrl) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health"))
                .timeout(Duration.ofSeconds(2))
                .GET()
                .build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && "UP".equals(overallStatus(response.body()));
        } catch (IOException notListeningYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The {@code "status"} member of the top-level object of an actuator health document (components carry their own,
     * and the serializer may put them first); null when absent.
     */
    public static String overallStatus(String body) {
        int depth = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '"') {
                int end = closingQuote(body, i);
                if (depth == 1 && body.startsWith("status", i + 1) && end == i + 1 + "status".length()) {
                    Matcher value = STRING_VALUE.matcher(body).region(end + 1, body.length());
                    if (value.lookingAt()) {
                        return value.group(1);
                    }
                }
                i = end;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return null;
    }

    private static int closingQuote(String body, int open) {
        for (int i = open + 1; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return body.length();
    }
}
