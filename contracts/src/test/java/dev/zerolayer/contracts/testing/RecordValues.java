package dev.zerolayer.contracts.testing;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test values for records, found by reflection over their components: a value of any component type that differs from
 * a given one, and a copy of a record with one component changed; so tests cover components added later unnamed.
 */
public final class RecordValues {

    private RecordValues() {
    }

    /**
     * A value of the type that is not equal to {@code current}: numbers grow, text gets a suffix, an enum moves to the
     * next constant, a record gets every component changed, a list every element, and a map changes the value of
     * every key but its first, drops the first and gains a key (a null or empty list or map gets one element).
     */
    public static Object different(Type type, Object current) {
        Class<?> raw = raw(type);
        if (raw == int.class || raw == Integer.class) {
            return current == null ? 7 : (Integer) current + 1;
        }
        if (raw == long.class || raw == Long.class) {
            return current == null ? 7L : (Long) current + 1;
        }
        if (raw == double.class || raw == Double.class) {
            return current == null ? 0.25 : (Double) current + 0.25;
        }
        if (raw == float.class || raw == Float.class) {
            return current == null ? 0.25f : (Float) current + 0.25f;
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return current == null || !(Boolean) current;
        }
        if (raw == String.class) {
            return current == null ? "changed" : current + "-changed";
        }
        if (raw == Instant.class) {
            return current == null ? Instant.EPOCH : ((Instant) current).plusSeconds(1);
        }
        if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            return current == null ? constants[0] : constants[(((Enum<?>) current).ordinal() + 1) % constants.length];
        }
        if (raw.isRecord()) {
            RecordComponent[] components = raw.getRecordComponents();
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                values[i] = different(components[i].getGenericType(),
                        current == null ? null : read(components[i], current));
            }
            return create(raw, values);
        }
        if (List.class.isAssignableFrom(raw)) {
            Type element = argument(type, 0);
            List<?> list = (List<?>) current;
            List<Object> changed = new ArrayList<>();
            if (list == null || list.isEmpty()) {
                changed.add(different(element, null));
            } else {
                list.forEach(e -> changed.add(different(element, e)));
            }
            return List.copyOf(changed);
        }
        if (Map.class.isAssignableFrom(raw)) {
            Type key = argument(type, 0);
            Type value = argument(type, 1);
            Map<Object, Object> changed = new LinkedHashMap<>();
            Map<?, ?> map = current == null ? Map.of() : (Map<?, ?>) current;
            map.entrySet().stream().skip(1).forEach(e -> changed.put(e.getKey(), different(value, e.getValue())));
            Object newKey = different(key, map.isEmpty() ? null : map.keySet().iterator().next());
            while (map.containsKey(newKey)) {
                newKey = different(key, newKey);
            }
            changed.put(newKey, different(value, null));
            return changed;
        }
        throw new IllegalArgumentException("no test value for " + type);
    }

    /** A copy of the record with the named component set to {@code value}, every other one the record's. */
    public static <R extends Record> R with(R record, String component, Object value) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        boolean found = false;
        for (int i = 0; i < components.length; i++) {
            found |= components[i].getName().equals(component);
            values[i] = components[i].getName().equals(component) ? value : read(components[i], record);
        }
        if (!found) {
            throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no component " + component);
        }
        @SuppressWarnings("unchecked")
        R copy = (R) create(record.getClass(), values);
        return copy;
    }

    /** A record of that type with every component null (its canonical constructor's defaults apply). */
    public static <R extends Record> R allNull(Class<R> type) {
        return type.cast(create(type, new Object[type.getRecordComponents().length]));
    }

    public static Object read(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object create(Class<?> type, Object[] values) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new IllegalArgumentException("no test value for " + type);
    }

    private static Type argument(Type type, int index) {
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[index];
        }
        throw new IllegalArgumentException("raw collection type " + type);
    }
}
