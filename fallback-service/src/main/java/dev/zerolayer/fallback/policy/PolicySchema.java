package dev.zerolayer.fallback.policy;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The committed JSON Schema of the policy document ({@value #RESOURCE}, draft 2020-12): structure, types and ranges,
 * each violation at the JSON pointer of the offending field (a missing or unexpected property at its own pointer).
 */
public final class PolicySchema {

    public static final String RESOURCE = "/policy.schema.json";

    private final Schema schema;

    public PolicySchema() {
        try (InputStream in = PolicySchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("schema resource " + RESOURCE + " is missing");
            }
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<PolicyViolation> validate(JsonNode document) {
        return schema.validate(document).stream().map(PolicySchema::violation)
                .sorted(Comparator.comparing(PolicyViolation::pointer)).distinct().toList();
    }

    private static PolicyViolation violation(Error error) {
        String pointer = pointerOf(error);
        String keyword = error.getKeyword();
        String property = error.getProperty();
        if (property != null && ("required".equals(keyword) || "additionalProperties".equals(keyword))) {
            pointer = pointer + PolicyViolation.path(property);
        }
        return new PolicyViolation(pointer, messageOf(error, keyword, property));
    }

    private static String pointerOf(Error error) {
        String location = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
        return location.equals("/") ? "" : location;
    }

    private static String messageOf(Error error, String keyword, String property) {
        if ("required".equals(keyword)) {
            return "is required";
        }
        if ("additionalProperties".equals(keyword)) {
            return "is not a known field here";
        }
        String message = error.getMessage();
        String location = error.getInstanceLocation() == null ? null : error.getInstanceLocation().toString();
        if (location != null && message != null && message.startsWith(location + ": ")) {
            message = message.substring(location.length() + 2);
        }
        return message;
    }
}
