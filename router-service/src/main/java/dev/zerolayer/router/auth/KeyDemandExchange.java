package dev.zerolayer.router.auth;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.router.KeyDemand;
import dev.zerolayer.routing.limits.FairShare;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Splits each API key's rate limit among the router replicas by demand: every period this replica publishes what each
 * key asked of it, and sets its part of each key's limit from its own demand over the window and its peers' latest
 * ({@link FairShare}; at least an equal part of the replicas asked for the key, so a key's first requests here are
 * not refused while its demand travels); a key no peer asked for has its whole limit here.
 */
public final class KeyDemandExchange implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(KeyDemandExchange.class);

    private final RateLimits limits;
    private final PeerDemand peers;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final String topic;
    private final String replica;
    private final Duration period;
    private final int windowPeriods;
    private final Clock clock;
    private final Counter unsent;
    private final ArrayDeque<Map<String, Long>> own = new ArrayDeque<>();
    private final SplittableRandom random = new SplittableRandom();
    private Set<String> shared = Set.of();
    private ScheduledExecutorService ticks;
    private Producer<byte[], byte[]> producer;
    private volatile boolean running;
    private volatile boolean warned;

    /**
     * @param period how often demand is published and the parts set
     * @param window how far back this replica's own demand is counted (a whole number of periods)
     */
    public KeyDemandExchange(RateLimits limits, PeerDemand peers, Supplier<Producer<byte[], byte[]>> producers,
            String topic, String replica, Duration period, Duration window, Clock clock, MeterRegistry meters) {
        this.limits = limits;
        this.peers = peers;
        this.producers = producers;
        this.topic = topic;
        this.replica = replica;
        this.period = period;
        this.windowPeriods = (int) Math.max(1, window.toMillis() / period.toMillis());
        this.clock = clock;
        this.unsent = Counter.builder("zerolayer_router_key_demand_unsent")
                .description("Demand records this router replica could not publish").register(meters);
    }

    /** One period: set this replica's part of every key asked here or by a peer, then publish its own demand. */
    void tick() {
        Map<String, Long> asked = limits.drainAsked();
        own.addLast(asked);
        while (own.size() > windowPeriods) {
            own.removeFirst();
        }
        Map<String, Double> ownRates = new HashMap<>();
        double seconds = own.size() * period.toMillis() / 1000.0;
        for (Map<String, Long> periodAsked : own) {
            periodAsked.forEach((keyId, requests) -> ownRates.merge(keyId, requests / seconds, Double::sum));
        }
        Map<String, double[]> peerRates = peers.rates();
        Set<String> keys = new HashSet<>(ownRates.keySet());
        keys.addAll(peerRates.keySet());
        keys.addAll(shared);
        Set<String> nowShared = new HashSet<>();
        for (String keyId : keys) {
            int limit = limits.limitOf(keyId);
            double[] others = peerRates.get(keyId);
            if (others == null || others.length == 0) {
                limits.permit(keyId, limit);
                continue;
            }
            nowShared.add(keyId);
            double part = Math.max(FairShare.of(limit, ownRates.getOrDefault(keyId, 0.0), others),
                    (double) limit / (others.length + 1));
            // a fractional part is rounded up or down at random, so that it holds on average (a part under 1 closes
            // the key here for some periods: a limit smaller than the replicas asking still holds)
            int whole = (int) part;
            limits.permit(keyId, whole + (random.nextDouble() < part - whole ? 1 : 0));
        }
        shared = nowShared;
        if (!asked.isEmpty()) {
            publish(new KeyDemand(EventChecks.newEventId(), clock.instant(), KeyDemand.SCHEMA_VERSION, replica,
                    period.toMillis(), busiest(asked)));
        }
    }

    /** At most {@link KeyDemand#MAX_KEYS} keys, the busiest (a flood of invented key ids cannot outgrow a record). */
    private static Map<String, Long> busiest(Map<String, Long> asked) {
        if (asked.size() <= KeyDemand.MAX_KEYS) {
            return asked;
        }
        Map<String, Long> kept = new HashMap<>();
        asked.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(KeyDemand.MAX_KEYS).forEach(entry -> kept.put(entry.getKey(), entry.getValue()));
        return kept;
    }

    private void publish(KeyDemand demand) {
        try {
            if (producer == null) {
                producer = producers.get();
            }
            producer.send(new ProducerRecord<>(topic, replica.getBytes(StandardCharsets.UTF_8),
                    EventCodec.encode(demand)), (metadata, e) -> {
                        if (e != null) {
                            unsent(e);
                        } else {
                            warned = false;
                        }
                    });
        } catch (RuntimeException e) {
            unsent(e);
        }
    }

    /** Counted each time; logged once, then again only after a record went out. */
    private void unsent(Exception e) {
        unsent.increment();
        if (!warned) {
            warned = true;
            log.warn("could not publish this replica's demand per API key (rate limits are split on what arrived): {}",
                    e.toString());
        }
    }

    @Override
    public void start() {
        ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "key-demand");
            thread.setDaemon(true);
            return thread;
        });
        ticks.scheduleAtFixedRate(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                log.warn("key demand tick failed: {}", e.toString());
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (ticks != null) {
            ticks.shutdownNow();
            try {
                ticks.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(2));
            producer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
