package dev.zerolayer.contracts.router;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * A candidate's terms by scorer name as an immutable map over two aligned arrays, in the scorers' order: one object
 * per candidate instead of a hash map of boxed numbers; reads and compares as any other map, and is written and read as
 * the same JSON object straight from and into its arrays ({@link Writer}, {@link Reader}).
 */
@JsonSerialize(using = ScoreTerms.Writer.class)
public final class ScoreTerms extends AbstractMap<String, Double> {

    private static final ScoreTerms EMPTY = new ScoreTerms(new String[0], new double[0]);

    private final String[] names;
    private final double[] values;

    private ScoreTerms(String[] names, double[] values) {
        this.names = names;
        this.values = values;
    }

    /**
     * Terms over {@code names} and {@code values}, taken as they are: the caller hands them over and keeps no reference
     * it writes through.
     */
    public static ScoreTerms of(String[] names, double[] values) {
        return keys(names).terms(values);
    }

    /** Scorer names checked once (none twice), for any number of candidates' terms over them. */
    public static Names keys(String... names) {
        for (int i = 0; i < names.length; i++) {
            for (int j = 0; j < i; j++) {
                if (names[j].equals(names[i])) {
                    throw new IllegalArgumentException("scorer " + names[i] + " named twice");
                }
            }
        }
        return new Names(names.clone());
    }

    /** A checked, never-changed list of scorer names: the keys every candidate's terms share. */
    public static final class Names {

        private final String[] names;

        private Names(String[] names) {
            this.names = names;
        }

        /** The terms of one candidate: {@code values} in the names' order, taken as they are. */
        public ScoreTerms terms(double[] values) {
            if (names.length != values.length) {
                throw new IllegalArgumentException(names.length + " names for " + values.length + " values");
            }
            return names.length == 0 ? EMPTY : new ScoreTerms(names, values);
        }
    }

    /**
     * The same entries in the map's iteration order; an entry without a name or a value is no term and is left out, and
     * no map at all is no terms.
     */
    static ScoreTerms copyOf(Map<String, Double> map) {
        if (map == null) {
            return EMPTY;
        }
        if (map instanceof ScoreTerms terms) {
            return terms;
        }
        String[] names = new String[map.size()];
        double[] values = new double[map.size()];
        int n = 0;
        for (Map.Entry<String, Double> entry : map.entrySet()) {
            if (entry.getKey() != null && entry.getValue() != null) {
                names[n] = entry.getKey();
                values[n++] = entry.getValue();
            }
        }
        return n == names.length ? of(names, values) : of(Arrays.copyOf(names, n), Arrays.copyOf(values, n));
    }

    /** The scorer names in order. */
    public List<String> names() {
        return List.of(names);
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Double get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    private int indexOf(Object key) {
        return indexOf(names, names.length, key);
    }

    /** Where {@code key} is among the first {@code n} names, or -1. */
    private static int indexOf(String[] names, int n, Object key) {
        for (int i = 0; i < n; i++) {
            if (names[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Map.Entry<String, Double>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return names.length;
            }

            @Override
            public Iterator<Map.Entry<String, Double>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Map.Entry<String, Double> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], values[i]);
                    }
                };
            }
        };
    }

    /** Writes the terms as a JSON object in the scorers' order, each value a JSON number, no entry or number boxed. */
    public static final class Writer extends ValueSerializer<ScoreTerms> {

        @Override
        public void serialize(ScoreTerms terms, JsonGenerator json, SerializationContext context) {
            json.writeStartObject(terms, terms.names.length);
            for (int i = 0; i < terms.names.length; i++) {
                json.writeName(terms.names[i]);
                json.writeNumber(terms.values[i]);
            }
            json.writeEndObject();
        }
    }

    /**
     * Reads a JSON object of terms into the arrays, as a map of them would read: a null value is no term, a name given
     * twice keeps its first place and its last value, a value that is not a number is read as the JSON reader reads a
     * number (or refused as it would be), anything but an object is refused.
     */
    public static final class Reader extends ValueDeserializer<ScoreTerms> {

        @Override
        public ScoreTerms deserialize(JsonParser json, DeserializationContext context) throws JacksonException {
            JsonToken token = json.currentToken();
            if (token == JsonToken.START_OBJECT) {
                token = json.nextToken();
            } else if (token != JsonToken.PROPERTY_NAME && token != JsonToken.END_OBJECT) {
                // an object may arrive past its start (buffered by the caller); anything else is no object of terms
                return (ScoreTerms) context.handleUnexpectedToken(ScoreTerms.class, json);
            }
            String[] names = new String[8];
            double[] values = new double[8];
            int n = 0;
            for (; token == JsonToken.PROPERTY_NAME; token = json.nextToken()) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (value == JsonToken.VALUE_NULL) {
                    continue;
                }
                double number = value == JsonToken.VALUE_NUMBER_FLOAT || value == JsonToken.VALUE_NUMBER_INT
                        ? json.getDoubleValue() : context.readValue(json, Double.class);
                int at = indexOf(names, n, name);
                if (at < 0) {
                    if (n == names.length) {
                        names = Arrays.copyOf(names, n * 2);
                        values = Arrays.copyOf(values, n * 2);
                    }
                    at = n++;
                    names[at] = name;
                }
                values[at] = number;
            }
            return n == 0 ? EMPTY : new ScoreTerms(Arrays.copyOf(names, n), Arrays.copyOf(values, n));
        }

        @Override
        public ScoreTerms getEmptyValue(DeserializationContext context) {
            return EMPTY;
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            text.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(values[i]);
        }
        return text.append('}').toString();
    }

}
