package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * Each term this replica leads, {@link #takeOver} runs as a platform {@link StartupStep} (retried, the pause growing up
 * to {@code retry}, until it succeeds, the term ends or the service stops); when a term ends, {@link #termEnded} runs
 * at once.
 */
public abstract class TermTakeover implements SmartLifecycle {

    private final String name;
    private final TopicGuard guard;
    private final Duration retry;
    private final Leadership leadership;
    private StartupStep step;
    private boolean running;

    /** @param name the step's thread name and what the log calls it */
    protected TermTakeover(String name, TopicGuard guard, Duration retry, Leadership leadership) {
        this.name = name;
        this.guard = guard;
        this.retry = retry;
        this.leadership = leadership;
        leadership.onChange(this::onTerm);
    }

    /** Takes the term over; a {@link RuntimeException} means "try again". */
    protected abstract void takeOver(long generation) throws InterruptedException;

    /** This replica's term has ended: stop writing at once. */
    protected abstract void termEnded();

    /** Whether this replica still leads the term {@code generation}. */
    protected final boolean leads(long generation) {
        return leadership.term().map(t -> t.generation() == generation).orElse(false);
    }

    protected final Leadership leadership() {
        return leadership;
    }

    protected final TopicGuard guard() {
        return guard;
    }

    private synchronized void onTerm(Optional<Leadership.Term> term) {
        stopStep();
        if (term.isEmpty()) {
            termEnded();
            return;
        }
        if (!running) {
            return;
        }
        long generation = term.get().generation();
        step = new StartupStep(name, guard, () -> {
            if (leads(generation)) {
                takeOver(generation);
            }
        }, retry);
        step.start();
    }

    private void stopStep() {
        if (step != null) {
            step.stop();
            step = null;
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        leadership.term().ifPresent(term -> onTerm(Optional.of(term)));
    }

    /** Stops a takeover under way; a subclass that must stop writing on shutdown too overrides and calls this. */
    @Override
    public synchronized void stop() {
        running = false;
        stopStep();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }
}
