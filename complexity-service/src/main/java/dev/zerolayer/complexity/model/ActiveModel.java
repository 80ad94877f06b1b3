package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model scoring uses: the latest usable model on {@code complexity.model.v1}, else the built-in one (before the
 * topic holds any); a published model a scorer cannot be built from is ignored, as routers ignore it.
 */
public class ActiveModel {

    private static final Logger log = LoggerFactory.getLogger(ActiveModel.class);

    private final ModelView view;
    private final AtomicReference<ComplexityScorer> scorer = new AtomicReference<>(ComplexityScorer.defaultScorer());
    private volatile String rejectedEventId;

    public ActiveModel(ModelView view) {
        this.view = view;
    }

    /** The scorer of the active model. */
    public ComplexityScorer scorer() {
        ComplexityScorer now = scorer.get();
        Optional<ComplexityModel> published = view.published();
        if (published.isEmpty() || published.get() == now.model()
                || published.get().eventId().equals(rejectedEventId)) {
            return now;
        }
        try {
            ComplexityScorer next = ComplexityScorer.withModel(published.get());
            if (scorer.compareAndSet(now, next) && !next.modelVersion().equals(now.modelVersion())) {
                log.info("complexity model {} active", next.modelVersion());
            }
            return scorer.get();
        } catch (IllegalArgumentException e) {
            rejectedEventId = published.get().eventId();
            log.warn("published complexity model {} is unusable: {}", published.get().modelVersion(), e.getMessage());
            return now;
        }
    }

    public ComplexityModel model() {
        return scorer().model();
    }

    /** Whether the topic holds a model scoring can use (so the built-in one need not be published). */
    public boolean hasUsablePublishedModel() {
        ComplexityScorer current = scorer();
        return view.published().map(published -> published == current.model()).orElse(false);
    }
}
