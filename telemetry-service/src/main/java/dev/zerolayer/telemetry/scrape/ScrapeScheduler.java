package dev.zerolayer.telemetry.scrape;

import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.telemetry.health.HealthTracker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * Scrapes each interval every inventory node this replica runs (another replica scrapes the rest), once the topics are
 * ready; a malformed or unreachable scrape is counted
 * in {@code zerolayer_telemetry_scrape_failures_total{node,reason}} and changes nothing.
 */
public class ScrapeScheduler implements SmartLifecycle {

    private final List<NodeScraper> scrapers;
    private final HealthTracker tracker;
    private final TopicGuard guard;
    private final Duration interval;
    private final MeterRegistry meters;
    private Disposable running;

    public ScrapeScheduler(List<NodeScraper> scrapers, HealthTracker tracker, TopicGuard guard, Duration interval,
            MeterRegistry meters) {
        this.scrapers = scrapers;
        this.tracker = tracker;
        this.guard = guard;
        this.interval = interval;
        this.meters = meters;
    }

    @Override
    public synchronized void start() {
        if (scrapers.isEmpty()) {
            return;
        }
        running = Flux.interval(interval).filter(tick -> guard.ready())
                .flatMapIterable(tick -> scrapers)
                .filter(scraper -> tracker.runs(scraper.nodeId()))
                .flatMap(scraper -> scraper.scrape()
                        .doOnNext(tracker::onSample)
                        .onErrorResume(error -> {
                            Counter.builder("zerolayer.telemetry.scrape.failures").tag("node", scraper.nodeId())
                                    .tag("reason", NodeScraper.malformed(error) ? "malformed" : "unreachable")
                                    .register(meters).increment();
                            return reactor.core.publisher.Mono.empty();
                        }))
                .subscribe();
    }

    @Override
    public synchronized void stop() {
        if (running != null) {
            running.dispose();
            running = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return running != null;
    }
}
