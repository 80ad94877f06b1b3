package dev.zerolayer.console.live;

import java.time.Duration;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * The console's server-sent events: one hot stream that every open page shares (a slow page drops events rather than
 * holding others back), with a comment every 15 s so idle connections stay open through proxies.
 */
public final class LiveEvents {

    private final Sinks.Many<ServerSentEvent<Object>> sink = Sinks.many().multicast().directBestEffort();

    /** Sends a named event to every open page; emissions from different threads are serialised here. */
    public synchronized void emit(String name, Object data) {
        sink.tryEmitNext(ServerSentEvent.builder(data).event(name).build());
    }

    /** The stream for one page. */
    public Flux<ServerSentEvent<Object>> stream() {
        Flux<ServerSentEvent<Object>> keepAlive = Flux.interval(Duration.ofSeconds(15))
                .map(tick -> ServerSentEvent.builder().comment("keep-alive").build());
        return Flux.merge(sink.asFlux(), keepAlive);
    }

    /** How many pages are listening. */
    public int listeners() {
        return sink.currentSubscriberCount();
    }
}
