package dev.zerolayer.router.auth;

import dev.zerolayer.contracts.router.KeyDemand;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The other router replicas' latest demand per API key ({@code router.key-demand.v1}), each counted for {@code window}
 * after it arrived (by this replica's clock; one made longer ago than that, give or take the clocks' skew, is not
 * counted at all): a replica that stops asking, or stops, soon counts for nothing.
 */
public final class PeerDemand implements Consumer<Message<byte[]>> {

    private record Received(KeyDemand demand, Instant at) {
    }

    /** How far the replicas' clocks may differ. */
    private static final Duration CLOCK_SKEW = Duration.ofSeconds(2);

    private final EventReader reader;
    private final String self;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Received> latest = new ConcurrentHashMap<>();

    public PeerDemand(EventReader reader, String self, Duration window, Clock clock) {
        this.reader = reader;
        this.self = self;
        this.window = window;
        this.clock = clock;
    }

    @Override
    public void accept(Message<byte[]> message) {
        if (EventReader.isTombstone(message)) {
            return;
        }
        KeyDemand demand = reader.read(message, Topics.ROUTER_KEY_DEMAND_TOPIC);
        // a record delivered late (a stalled consumer, a backlog) is not the peer's demand now
        boolean late = demand.occurredAt().isBefore(clock.instant().minus(window).minus(CLOCK_SKEW));
        if (!late && !demand.replica().equals(self)) {
            latest.put(demand.replica(), new Received(demand, clock.instant()));
        }
    }

    /** Per key, the requests per second each peer asked for in its latest period still within the window. */
    public Map<String, double[]> rates() {
        Instant oldest = clock.instant().minus(window);
        Map<String, List<Double>> rates = new HashMap<>();
        latest.values().removeIf(received -> received.at().isBefore(oldest));
        for (Received received : latest.values()) {
            double seconds = received.demand().periodMillis() / 1000.0;
            received.demand().requests().forEach((keyId, requests) ->
                    rates.computeIfAbsent(keyId, id -> new ArrayList<>()).add(requests / seconds));
        }
        Map<String, double[]> byKey = new HashMap<>();
        rates.forEach((keyId, list) -> byKey.put(keyId, list.stream().mapToDouble(Double::doubleValue).toArray()));
        return byKey;
    }

    /** How many peers asked for anything within the window. */
    public int peers() {
        Instant oldest = clock.instant().minus(window);
        return (int) latest.values().stream().filter(received -> !received.at().isBefore(oldest)).count();
    }
}
