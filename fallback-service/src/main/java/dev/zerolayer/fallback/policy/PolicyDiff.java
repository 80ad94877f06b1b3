package dev.zerolayer.fallback.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The leaf-level difference of two JSON documents as JSON pointers: objects field by field, arrays index by index
 * (extra or missing elements are added or removed), anything else compared by value; numbers by numeric value.
 */
public final class PolicyDiff {

    private PolicyDiff() {
    }

    public static List<PolicyChange> between(JsonNode before, JsonNode after) {
        List<PolicyChange> changes = new ArrayList<>();
        walk("", before, after, changes);
        return changes;
    }

    private static void walk(String path, JsonNode before, JsonNode after, List<PolicyChange> out) {
        boolean hadBefore = before != null && !before.isMissingNode();
        boolean hasAfter = after != null && !after.isMissingNode();
        if (!hadBefore && !hasAfter) {
            return;
        }
        if (!hadBefore) {
            out.add(new PolicyChange(path, PolicyChange.Kind.ADDED));
        } else if (!hasAfter) {
            out.add(new PolicyChange(path, PolicyChange.Kind.REMOVED));
        } else if (before.isObject() && after.isObject()) {
            Set<String> names = new TreeSet<>(before.propertyNames());
            names.addAll(after.propertyNames());
            for (String name : names) {
                walk(path + PolicyViolation.path(name), before.get(name), after.get(name), out);
            }
        } else if (before.isArray() && after.isArray()) {
            for (int i = 0; i < Math.max(before.size(), after.size()); i++) {
                walk(path + "/" + i, before.get(i), after.get(i), out);
            }
        } else if (!same(before, after)) {
            out.add(new PolicyChange(path, PolicyChange.Kind.CHANGED));
        }
    }

    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }
}
