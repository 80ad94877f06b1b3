package dev.zerolayer.routing.tokens;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Served models' tokenizers by location: each is loaded once, in the background, the first time a request asks, and then
 * shared; until it is ready (and after a failed load, until {@code retryAfterMs} has passed and it is tried again) the
 * answer is empty, so a request never waits for a load. A node that re-registers with another location gets that one:
 * a model is swapped by pointing its nodes at new files, without a restart, and the one no node names any more is
 * dropped and, a grace period later (no request still uses it), closed.
 *
 * @param <M> what a location loads into
 */
public final class ServedModels<M> {

    /** What a location loads into, or why it cannot. */
    @FunctionalInterface
    public interface Loader<M> {
        M load(String location) throws Exception;
    }

    /** Where a location stands: loading, ready, or failed with a reason. */
    public sealed interface State {
    }

    /** Being loaded; requests meanwhile get no exact prefix. */
    public record Loading() implements State {
    }

    /** Loaded and shared. */
    public record Ready(Object model) implements State {
    }

    /** The load failed at {@code atMillis}; it is tried again after the retry delay. */
    public record Failed(String reason, long atMillis) implements State {
    }

    private final Loader<M> loader;
    private final Executor executor;
    private final LongSupplier clockMillis;
    private final long retryAfterMs;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    /** Models dropped and not yet closed, with the time they were dropped. */
    private final List<Map.Entry<Object, Long>> retired = new ArrayList<>();

    public ServedModels(Loader<M> loader, Executor executor, LongSupplier clockMillis, long retryAfterMs) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.retryAfterMs = retryAfterMs;
    }

    /** The model at {@code location} if it is loaded; otherwise starts (or retries) its load and answers empty. */
    @SuppressWarnings("unchecked")
    public Optional<M> ready(String location) {
        State state = states.get(location);
        if (state instanceof Ready ready) {
            return Optional.of((M) ready.model());
        }
        if (state == null || state instanceof Failed failed && clockMillis.getAsLong() - failed.atMillis() >= retryAfterMs) {
            start(location, state);
        }
        return Optional.empty();
    }

    /** Where a location stands (loading when never asked for). */
    public State state(String location) {
        return states.getOrDefault(location, new Loading());
    }

    /** Every location asked for and where it stands, by location. */
    public Map<String, State> states() {
        return new TreeMap<>(states);
    }

    /**
     * Drops the locations no node names any more ({@code named} are kept) and closes, once {@code retryAfterMs} has
     * passed since they were dropped, the models that were loaded there (a request that took one before it was dropped
     * has long finished with it); returns how many locations were dropped now.
     */
    public synchronized int retain(Set<String> named) {
        long now = clockMillis.getAsLong();
        int dropped = 0;
        for (String location : List.copyOf(states.keySet())) {
            if (!named.contains(location)) {
                State state = states.remove(location);
                dropped++;
                if (state instanceof Ready ready && ready.model() instanceof AutoCloseable) {
                    retired.add(Map.entry(ready.model(), now));
                }
            }
        }
        for (Iterator<Map.Entry<Object, Long>> it = retired.iterator(); it.hasNext();) {
            Map.Entry<Object, Long> model = it.next();
            if (now - model.getValue() >= retryAfterMs) {
                it.remove();
                try {
                    ((AutoCloseable) model.getKey()).close();
                } catch (Exception e) {
                    // closing frees memory only; a model that fails to close is dropped all the same
                }
            }
        }
        return dropped;
    }

    private void start(String location, State seen) {
        Loading loading = new Loading();
        boolean mine = seen == null ? states.putIfAbsent(location, loading) == null
                : states.replace(location, seen, loading);
        if (!mine) {
            return;
        }
        executor.execute(() -> {
            State done;
            try {
                done = new Ready(Objects.requireNonNull(loader.load(location), "loader gave null"));
            } catch (Exception | LinkageError e) {
                done = new Failed(e.getClass().getSimpleName() + ": " + e.getMessage(), clockMillis.getAsLong());
            }
            states.put(location, done);
        });
    }
}
