package dev.zerolayer.contracts.fallback;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies an API key's override to the policy by component name: an override field replaces the policy's field of that
 * name (a map named in {@link PolicyOverride#MERGED_BY_KEY} entry by entry), or the field of that name in one of the
 * policy's parts (its {@link Resilience}, say); every other field, of the policy and of its parts, is copied whole, so a
 * field added later is kept without anyone naming it here.
 */
final class OverrideMerge {

    private static final RecordShape DOCUMENT = RecordShape.of(PolicyDocument.class);
    private static final RecordShape OVERRIDE = RecordShape.of(PolicyOverride.class);

    /** Where one override field goes: a policy field, or (nested at or above 0) a field of that policy part. */
    private record Step(int from, String name, int field, RecordShape part, int nested, boolean byKey) {
    }

    private static final List<Step> STEPS = plan();

    private OverrideMerge() {
    }

    /** Whether the override sets any field that is merged into the policy (a null field or an empty map sets none). */
    static boolean changesPolicy(PolicyOverride override) {
        for (Step step : STEPS) {
            if (isSet(step, OVERRIDE.value(override, step.from()))) {
                return true;
            }
        }
        return false;
    }

    /** The policy with each field the override sets replaced (or, for a map merged by key, overlaid). */
    static PolicyDocument apply(PolicyDocument document, PolicyOverride override) {
        Object[] values = DOCUMENT.values(document);
        Map<Integer, Object[]> parts = new LinkedHashMap<>();
        for (Step step : STEPS) {
            Object value = OVERRIDE.value(override, step.from());
            if (!isSet(step, value)) {
                continue;
            }
            if (step.part() != null) {
                Object part = values[step.field()];
                if (part == null) {
                    throw new IllegalStateException("the policy has no " + DOCUMENT.components().get(step.field())
                            .getName() + " to set " + step.name() + " in");
                }
                parts.computeIfAbsent(step.field(), field -> step.part().values(part))[step.nested()] = value;
            } else if (step.byKey()) {
                Map<Object, Object> merged = new LinkedHashMap<>((Map<?, ?>) values[step.field()]);
                merged.putAll((Map<?, ?>) value);
                values[step.field()] = merged;
            } else {
                values[step.field()] = value;
            }
        }
        parts.forEach((field, partValues) -> values[field] = shapeOfPart(field).create(partValues));
        return (PolicyDocument) DOCUMENT.create(values);
    }

    private static boolean isSet(Step step, Object value) {
        return value != null && !(step.byKey() && ((Map<?, ?>) value).isEmpty());
    }

    private static RecordShape shapeOfPart(int field) {
        for (Step step : STEPS) {
            if (step.field() == field && step.part() != null) {
                return step.part();
            }
        }
        throw new IllegalStateException("no part at " + field);
    }

    /**
     * Finds each override field's place once; a field with no place in the policy (and not declared as read
     * elsewhere) fails the class's initialisation, so a new override field cannot be silently ignored.
     */
    private static List<Step> plan() {
        for (String name : PolicyOverride.NOT_MERGED) {
            require(OVERRIDE.indexOf(name) >= 0, "PolicyOverride.NOT_MERGED names no field " + name);
        }
        for (String name : PolicyOverride.MERGED_BY_KEY) {
            int index = OVERRIDE.indexOf(name);
            require(index >= 0 && Map.class.isAssignableFrom(OVERRIDE.components().get(index).getType()),
                    "PolicyOverride.MERGED_BY_KEY names no map field " + name);
        }
        List<Step> steps = new ArrayList<>();
        List<RecordComponent> fields = OVERRIDE.components();
        for (int from = 0; from < fields.size(); from++) {
            RecordComponent source = fields.get(from);
            String name = source.getName();
            if (PolicyOverride.NOT_MERGED.contains(name)) {
                continue;
            }
            boolean byKey = PolicyOverride.MERGED_BY_KEY.contains(name);
            int field = DOCUMENT.indexOf(name);
            if (field >= 0) {
                require(sameType(source.getGenericType(), DOCUMENT.components().get(field).getGenericType()),
                        "PolicyOverride." + name + " has another type than PolicyDocument." + name);
                steps.add(new Step(from, name, field, null, -1, byKey));
                continue;
            }
            require(!byKey, "PolicyOverride." + name + " is merged by key but is no field of PolicyDocument");
            Step nested = null;
            for (int candidate = 0; candidate < DOCUMENT.components().size(); candidate++) {
                Class<?> partType = DOCUMENT.components().get(candidate).getType();
                if (!partType.isRecord()) {
                    continue;
                }
                RecordShape part = RecordShape.of(partType);
                int inner = part.indexOf(name);
                if (inner >= 0) {
                    require(nested == null, "PolicyOverride." + name + " names a field of more than one policy part");
                    require(sameType(source.getGenericType(), part.components().get(inner).getGenericType()),
                            "PolicyOverride." + name + " has another type than " + partType.getSimpleName() + "."
                                    + name);
                    nested = new Step(from, name, candidate, part, inner, false);
                }
            }
            require(nested != null, "PolicyOverride." + name + " names no field of the policy or of its parts;"
                    + " give it one, or list it in PolicyOverride.NOT_MERGED");
            steps.add(nested);
        }
        return List.copyOf(steps);
    }

    private static boolean sameType(Type a, Type b) {
        return a.equals(b) || (a instanceof Class<?> x && b instanceof Class<?> y && boxed(x) == boxed(y));
    }

    private static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "double" -> Double.class;
            case "float" -> Float.class;
            case "boolean" -> Boolean.class;
            case "short" -> Short.class;
            case "byte" -> Byte.class;
            default -> Character.class;
        };
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalStateException(problem);
        }
    }
}
