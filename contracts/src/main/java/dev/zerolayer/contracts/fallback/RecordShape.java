package dev.zerolayer.contracts.fallback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/**
 * A record class's components, read all at once and rebuilt through its canonical constructor, so code that copies a
 * record with some components changed names none of the others and cannot leave one out.
 */
final class RecordShape {

    private final Class<?> type;
    private final List<RecordComponent> components;
    private final MethodHandle[] accessors;
    private final MethodHandle constructor;

    private RecordShape(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        this.type = type;
        this.components = List.of(type.getRecordComponents());
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodType read = MethodType.methodType(Object.class, Object.class);
        this.accessors = new MethodHandle[components.size()];
        Class<?>[] parameterTypes = new Class<?>[components.size()];
        try {
            for (int i = 0; i < accessors.length; i++) {
                accessors[i] = lookup.unreflect(components.get(i).getAccessor()).asType(read);
                parameterTypes[i] = components.get(i).getType();
            }
            this.constructor = lookup.unreflectConstructor(type.getDeclaredConstructor(parameterTypes))
                    .asType(MethodType.methodType(Object.class, parameterTypes).generic())
                    .asSpreader(Object[].class, parameterTypes.length);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read or build " + type.getName(), e);
        }
    }

    static RecordShape of(Class<?> type) {
        return new RecordShape(type);
    }

    Class<?> type() {
        return type;
    }

    List<RecordComponent> components() {
        return components;
    }

    /** The index of the component with that name, or -1. */
    int indexOf(String name) {
        for (int i = 0; i < components.size(); i++) {
            if (components.get(i).getName().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    Object value(Object record, int index) {
        try {
            return accessors[index].invokeExact(record);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read " + components.get(index).getName(), e);
        }
    }

    /** Every component's value, in declaration order (the canonical constructor's order). */
    Object[] values(Object record) {
        Object[] values = new Object[accessors.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = value(record, i);
        }
        return values;
    }

    /** A new record from every component's value, through the canonical constructor (and its checks). */
    Object create(Object[] values) {
        if (values.length != accessors.length) {
            throw new IllegalArgumentException(type.getSimpleName() + " has " + accessors.length + " components, not "
                    + values.length + ": " + Arrays.toString(values));
        }
        try {
            return constructor.invoke(values);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }
}
