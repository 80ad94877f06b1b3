package dev.zerolayer.complexity.model;

import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermTakeover;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.topics.TopicGuard;
import java.time.Duration;

/**
 * Each term this replica leads opens the model writer (fencing an earlier term's producer) before any model goes out;
 * the model needs no takeover read: uploads replace the whole model, and the built-in one is published only on an
 * empty topic ({@link ModelOwner}).
 */
public class ModelTerm extends TermTakeover {

    public ModelTerm(TopicGuard guard, Leadership leadership, TermWriter writer) {
        super("model-term", guard, Duration.ofSeconds(2), leadership, writer);
    }

    @Override
    protected void takeOver(long generation) {
        // the writer is open: nothing more to take over
    }

    @Override
    protected void termEnded() {
        // the writer is closed by the platform; uploads are refused by the leadership check
    }
}
