package dev.zerolayer.bench.proxy;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Open-loop load at a fixed rate: request i is due at start + i/rate whether or not earlier ones have answered, and
 * its latency is counted from that due time (coordinated omission corrected), to the whole body for non-streaming
 * requests and to the first body byte for streaming ones.
 */
public final class OpenLoopLoad {

    /** One POST to send repeatedly. */
    public record Target(String name, String url, Map<String, String> headers, String body, boolean streaming) {
    }

    /** Latencies in microseconds of one run, plus what failed. */
    public record Result(String target, int rate, boolean streaming, Histogram latencyMicros, long sent, long ok,
            long failed, long late) {
    }

    private final HttpClient client;
    private final ConnectionProvider connections;

    public OpenLoopLoad(int maxConnections) {
        this.connections = ConnectionProvider.builder("open-loop").maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1).pendingAcquireTimeout(Duration.ofSeconds(30)).build();
        this.client = HttpClient.create(connections).responseTimeout(Duration.ofSeconds(30)).keepAlive(true);
    }

    public Result run(Target target, int rate, Duration length) throws InterruptedException {
        Recorder recorder = new Recorder(3);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long total = Math.max(1, (long) rate * length.toMillis() / 1000);
        CountDownLatch done = new CountDownLatch((int) total);
        long interval = 1_000_000_000L / rate;
        byte[] body = target.body().getBytes(StandardCharsets.UTF_8);
        long start = System.nanoTime() + 10_000_000;
        long late = 0;
        for (long i = 0; i < total; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (wait < -1_000_000) {
                late++;
            }
            send(target, body, due, recorder, ok, failed, done);
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
            failed.addAndGet(done.getCount());
        }
        return new Result(target.name(), rate, target.streaming(), recorder.getIntervalHistogram(), total, ok.get(),
                failed.get(), late);
    }

    private void send(Target target, byte[] body, long due, Recorder recorder, AtomicLong ok, AtomicLong failed,
            CountDownLatch done) {
        AtomicBoolean first = new AtomicBoolean();
        client.headers(h -> {
                    h.set("content-type", "application/json");
                    target.headers().forEach(h::set);
                })
                .post().uri(target.url()).send(ByteBufFlux.fromInbound(Mono.just(body)))
                .response((response, content) -> {
                    int status = response.status().code();
                    return content.doOnNext((ByteBuf chunk) -> {
                        if (target.streaming() && first.compareAndSet(false, true)) {
                            recorder.recordValue(Math.max(1, (System.nanoTime() - due) / 1_000));
                        }
                    }).then(Mono.fromRunnable(() -> {
                        if (status != 200) {
                            failed.incrementAndGet();
                            return;
                        }
                        if (!target.streaming()) {
                            recorder.recordValue(Math.max(1, (System.nanoTime() - due) / 1_000));
                        }
                        ok.incrementAndGet();
                    }));
                })
                .subscribe(null, error -> {
                    failed.incrementAndGet();
                    done.countDown();
                }, done::countDown);
    }

    public void close() {
        connections.dispose();
    }
}
