package dev.zerolayer.console.decisions;

import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventBatch;
import dev.zerolayer.platform.events.EventReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * Reads {@code router.decisions.v1} in batches: keeps the newest decisions for the stream and counts every one into
 * the charts' buckets (explain calls are listed but not counted as traffic), handing each to an observer of the
 * event (the fleet's breakers) and to a listener of the row.
 */
public final class DecisionLog implements Consumer<Message<List<byte[]>>> {

    private final EventReader reader;
    private final DeadLetters deadLetters;
    private final int kept;
    private final Deque<DecisionRow> recent = new ArrayDeque<>();
    private final Series series;
    private final Consumer<RoutingDecision> observer;
    private volatile Consumer<DecisionRow> listener = row -> { };

    /** {@code observer}: sees every decision event as read (before the listener). */
    public DecisionLog(EventReader reader, DeadLetters deadLetters, int kept, int bucketSeconds, int buckets,
            Consumer<RoutingDecision> observer) {
        this.reader = reader;
        this.observer = observer;
        this.deadLetters = deadLetters;
        this.kept = kept;
        this.series = new Series(bucketSeconds, buckets);
    }

    /** Receives each decision as it is read. */
    public void onDecision(Consumer<DecisionRow> listener) {
        this.listener = listener;
    }

    @Override
    public void accept(Message<List<byte[]>> batch) {
        EventBatch.forEach(batch, Topics.ROUTER_DECISIONS_TOPIC, reader, deadLetters, this::apply);
    }

    /** Records one decision. */
    public void apply(RoutingDecision decision) {
        DecisionRow row = DecisionRow.of(decision);
        synchronized (this) {
            recent.addFirst(row);
            while (recent.size() > kept) {
                recent.removeLast();
            }
            if (decision.status() != DecisionStatus.EXPLAINED) {
                series.add(decision.occurredAt(), decision.tier(), decision.node(), decision.fallbackTriggered(),
                        decision.ttfbMillis(), decision.status() == DecisionStatus.OK);
            }
        }
        observer.accept(decision);
        listener.accept(row);
    }

    /** The newest {@code limit} decisions, newest first. */
    public synchronized List<DecisionRow> newest(int limit) {
        List<DecisionRow> out = new ArrayList<>(Math.min(limit, recent.size()));
        for (DecisionRow row : recent) {
            if (out.size() == limit) {
                break;
            }
            out.add(row);
        }
        return out;
    }

    /** A kept decision by request id. */
    public synchronized Optional<DecisionRow> find(String requestId) {
        return recent.stream().filter(row -> row.requestId().equals(requestId)).findFirst();
    }

    /** The charts' buckets, oldest first. */
    public synchronized Series.View series() {
        return series.view();
    }
}
