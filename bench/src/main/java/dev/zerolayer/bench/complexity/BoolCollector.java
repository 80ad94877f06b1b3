package dev.zerolayer.bench.complexity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collector;

/** Collects a stream of booleans into a {@code boolean[]}. */
final class BoolCollector implements Collector<Boolean, List<Boolean>, boolean[]> {

    static final BoolCollector INSTANCE = new BoolCollector();

    @Override
    public Supplier<List<Boolean>> supplier() {
        return ArrayList::new;
    }

    @Override
    public BiConsumer<List<Boolean>, Boolean> accumulator() {
        return List::add;
    }

    @Override
    public BinaryOperator<List<Boolean>> combiner() {
        return (a, b) -> {
            a.addAll(b);
            return a;
        };
    }

    @Override
    public Function<List<Boolean>, boolean[]> finisher() {
        return list -> {
            boolean[] out = new boolean[list.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = list.get(i);
            }
            return out;
        };
    }

    @Override
    public Set<Characteristics> characteristics() {
        return Collections.emptySet();
    }
}
