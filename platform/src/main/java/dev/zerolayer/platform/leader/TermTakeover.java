package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * Each term this replica leads, the service's {@link TermWriter} (where it has one) is opened, fencing every earlier
 * term's producer, and then {@link #takeOver} runs, as one platform {@link StartupStep} (retried, the pause growing up
 * to {@code retry}, until it succeeds, the term ends or the service stops), again after a writer lost mid-term; when a
 * term ends, the writer closes and {@link #termEnded} runs at once.
 */
public abstract class TermTakeover implements SmartLifecycle {

    private final String name;
    private final TopicGuard guard;
    private final Duration retry;
    private final Leadership leadership;
    private final TermWriter writer;
    private StartupStep step;

    /** How long a lost writer waits before it is opened again: several polls of the election (every 250 ms). */
    static final Duration REOPEN_DELAY = Duration.ofSeconds(1);
    private boolean running;

    /** @param name the step's thread name and what the log calls it */
    protected TermTakeover(String name, TopicGuard guard, Duration retry, Leadership leadership) {
        this(name, guard, retry, leadership, null);
    }

    /**
     * @param writer the service's transactional writer, opened for each term before {@link #takeOver} runs (so a
     *               paused former leader's writes either landed before the takeover's read or are refused)
     */
    protected TermTakeover(String name, TopicGuard guard, Duration retry, Leadership leadership, TermWriter writer) {
        this.name = name;
        this.guard = guard;
        this.retry = retry;
        this.leadership = leadership;
        this.writer = writer;
        leadership.onChange(this::onTerm);
        if (writer != null) {
            writer.onLost(this::reopen);
        }
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
            if (writer != null) {
                writer.close();
            }
            termEnded();
            return;
        }
        if (!running) {
            return;
        }
        startStep(term.get().generation(), Duration.ZERO);
    }

    /**
     * The term's writer was lost (fenced or broken) while this replica still believes it leads. Either this replica is a
     * former leader that was paused and has not polled its election yet (it learns within one poll, and then its term
     * ends), or another replica in that state fenced this one while this one leads. So after {@link #REOPEN_DELAY} the
     * writer is opened again and the takeover run again, only if this replica still leads the term then.
     */
    private synchronized void reopen(long generation) {
        if (running && leads(generation)) {
            stopStep();
            startStep(generation, REOPEN_DELAY);
        }
    }

    /** Opens the writer (if any) and takes the term over, after {@code delay}, for as long as the term is this one's. */
    private void startStep(long generation, Duration delay) {
        step = new StartupStep(name, guard, () -> {
            if (!delay.isZero()) {
                Thread.sleep(delay.toMillis()); // a paused former leader's next election poll comes first
            }
            if (writer != null && leads(generation)) {
                writer.open(generation);
            }
            if (writer != null && !leads(generation)) {
                writer.close(generation); // the term ended while the id was being registered
            } else if (leads(generation)) {
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
