package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.topics.Backoff;
import dev.zerolayer.platform.topics.StartOffsets;
import dev.zerolayer.platform.topics.StartupCatchUp;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * At start, waits until the view has read {@code complexity.model.v1} to the end it had then; only when it holds no
 * usable model is the built-in one published, and only by the replica that leads (a follower waits for the leader's
 * model, or for its own term), so a restart never replaces an uploaded model and two replicas starting together publish
 * it once. Uploads wait until this is done; the tokenizer and scorer are loaded first so no request pays for that.
 */
public class ModelOwner implements SmartLifecycle, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(ModelOwner.class);
    private static final Duration POLL = Duration.ofMillis(50);

    /** Where the owner stands. */
    public enum State { WAITING_FOR_TOPICS, CATCHING_UP, PUBLISHING_BUILT_IN, READY, STOPPED }

    private final ModelView view;
    private final ActiveModel active;
    private final ModelPublisher publisher;
    private final TopicGuard guard;
    private final Duration publishTimeout;
    private final Clock clock;
    private final Leadership leadership;
    private final Supplier<String> viewGroup;
    private volatile State state = State.WAITING_FOR_TOPICS;
    private volatile boolean running;
    private volatile boolean publishedBuiltIn;
    private Thread worker;

    /**
     * @param viewGroup the consumer group the view's binding reads the topic with: its committed offsets say how far
     *                  the view has read (past a trailing transaction marker: {@code committedPastMarkers})
     */
    public ModelOwner(ModelView view, ActiveModel active, ModelPublisher publisher, TopicGuard guard,
            Duration publishTimeout, Clock clock, Leadership leadership, Supplier<String> viewGroup) {
        this.leadership = leadership;
        this.viewGroup = viewGroup;
        this.view = view;
        this.active = active;
        this.publisher = publisher;
        this.guard = guard;
        this.publishTimeout = publishTimeout;
        this.clock = clock;
    }

    /** Whether the topic has been read and holds the active model (uploads are accepted from then on). */
    public boolean ready() {
        return state == State.READY;
    }

    public State state() {
        return state;
    }

    /** Whether this start found no model and published the built-in one. */
    public boolean publishedBuiltIn() {
        return publishedBuiltIn;
    }

    @Override
    public void start() {
        running = true;
        worker = new Thread(this::own, "complexity-model-owner");
        worker.setDaemon(true);
        worker.start();
    }

    private void own() {
        try {
            warmUp();
            guard.awaitReady();
            state = State.CATCHING_UP;
            try (StartupCatchUp catchUp = StartupCatchUp.of(guard)) {
                StartOffsets start = catchUp.startOffsets(List.of(Topics.COMPLEXITY_MODEL), problem -> { });
                String group = viewGroup.get();
                if (!catchUp.awaitCaughtUp(start, topic -> catchUp.committedPastMarkers(group, start), POLL,
                        () -> running, behind -> { },
                        problem -> { })) {
                    return;
                }
            }
            state = State.PUBLISHING_BUILT_IN;
            publishBuiltInUnlessPublished();
            if (running) {
                state = State.READY;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Loads the tokenizer (about 2 s) and the scorer's lexicons now, so the first request does not pay for them. */
    private void warmUp() {
        long started = System.nanoTime();
        ComplexityScorer scorer = active.scorer();
        TokenCounter.of(scorer.model().tokenizerEncoding()).count(Conversation.ofUser("warm up: 1 + 1 = 2"));
        scorer.score(Conversation.ofUser("warm up: 1 + 1 = 2"));
        log.info("tokenizer {} and scorer loaded in {} ms", scorer.model().tokenizerEncoding(),
                (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * Until the topic holds a usable model: a follower waits (the leader publishes it, or this replica's term comes); a
     * leader publishes the built-in one, and goes back to waiting when its term ends before that succeeded; one that
     * was committed but not yet read back is waited for, never published again.
     */
    private void publishBuiltInUnlessPublished() throws InterruptedException {
        ComplexityModel builtIn = ComplexityModels.builtIn();
        Backoff backoff = new Backoff();
        while (running && !active.hasUsablePublishedModel()) {
            if (publishedBuiltIn || !leadership.isLeader()) {
                // a follower: the leader publishes it, or this replica's term comes; or this replica's own model is
                // committed and on its way to the view
                Thread.sleep(POLL.toMillis());
                continue;
            }
            ComplexityModel stamped = builtIn.restamped(EventChecks.newEventId(), clock.instant());
            ModelPublisher.Outcome outcome = publisher.publish(stamped, publishTimeout);
            if (outcome == ModelPublisher.Outcome.CONFIRMED) {
                publishedBuiltIn = true;
                log.info("no complexity model on {}; published the built-in model {}", Topics.COMPLEXITY_MODEL,
                        builtIn.modelVersion());
                return;
            }
            if (outcome == ModelPublisher.Outcome.UNCONFIRMED) {
                // committed, not read back yet (a view still joining its group on a slow start): it becomes the active
                // model when the view reads it; publishing it again would put the built-in model on the topic twice
                publishedBuiltIn = true;
                log.info("no complexity model on {}; published the built-in model {}, waiting to read it back",
                        Topics.COMPLEXITY_MODEL, builtIn.modelVersion());
                continue;
            }
            Duration pause = backoff.next();
            log.warn("built-in complexity model not published yet ({}); retrying in {} ms", outcome,
                    pause.toMillis());
            Thread.sleep(pause.toMillis());
        }
        if (active.hasUsablePublishedModel() && !publishedBuiltIn) {
            log.info("complexity model {} found on {}; keeping it", active.model().modelVersion(),
                    Topics.COMPLEXITY_MODEL);
        }
    }

    @Override
    public Health health() {
        Health.Builder health = state == State.READY ? Health.up() : Health.down();
        return health.withDetail("state", state.name())
                .withDetail("activeModelVersion", active.model().modelVersion())
                .withDetail("publishedBuiltInAtStart", publishedBuiltIn).build();
    }

    @Override
    public void stop() {
        running = false;
        state = State.STOPPED;
        if (worker != null) {
            worker.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
