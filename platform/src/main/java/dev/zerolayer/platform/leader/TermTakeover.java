package dev.zerolayer.platform.leader;

import dev.zerolayer.platform.topics.StartupStep;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * Each term this replica leads, the service's {@link TermWriter} (where it has one) is opened, fencing every earlier
 * term's producer, and then {@link #takeOver} runs, as one platform {@link StartupStep} (retried, the pause growing up
 * to {@code retry}, until it succeeds, the term ends or the service stops), and again after a writer lost mid-term once
 * the group coordinator confirmed the term; when a term ends, the writer closes and {@link #termEnded} runs at once.
 */
public abstract class TermTakeover implements SmartLifecycle {

    private final String name;
    private final TopicGuard guard;
    private final Duration retry;
    private final Leadership leadership;
    private final TermWriter writer;
    private StartupStep step;

    /** How long a confirmation of the term may take (one commit at the election's next poll, every 250 ms). */
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);
    /** The pause before asking again after a confirmation was refused while the term still seemed this one's. */
    static final Duration RECONFIRM = Duration.ofSeconds(1);
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
            // on a thread of its own: the write that lost the writer may hold its caller's locks (a store's)
            writer.onLost(generation -> {
                Thread reopening = new Thread(() -> reopen(generation), name + "-reopen");
                reopening.setDaemon(true);
                reopening.start();
            });
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
        startStep(term.get().generation());
    }

    /**
     * The term's writer was lost (fenced, broken, or a commit of unknown outcome) while this replica may still lead.
     * Either this replica is a former leader paused past its session that has not polled its election yet, or such a
     * replica fenced this one while this one leads. Writes stop at once ({@link #termEnded}); then the group
     * coordinator is asked whether this replica still holds the term ({@link Leadership#confirm}), every
     * {@link #RECONFIRM} until it answers or the term ends; only if it does are the writer opened and the takeover run
     * again (which reads the topics before writes resume). A former leader is refused, and its term ends at its next poll.
     */
    private void reopen(long generation) {
        termEnded();
        try {
            while (isRunning() && leads(generation)) {
                if (leadership.confirm(generation, CONFIRM_TIMEOUT)) {
                    synchronized (this) {
                        if (running && leads(generation)) {
                            stopStep();
                            startStep(generation);
                        }
                    }
                    return;
                }
                Thread.sleep(RECONFIRM.toMillis()); // the election's next poll settles a refusal or a rebalance
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Opens the writer (if any) and takes the term over, for as long as the term is this one's. */
    private void startStep(long generation) {
        step = new StartupStep(name, guard, () -> {
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
