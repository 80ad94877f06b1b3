package dev.zerolayer.bench.decision;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.decision.ScoredCandidate;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request's decision event on its way: encoded by the router's publishing thread, decoded by each consumer group
 * of {@code router.decisions.v1}; the event of a decision among {@link DecisionBenchmark}'s 8 nodes under the default
 * policy, every candidate with its terms, as the router writes it.
 *
 * <pre>
 * ./mvnw -B -o -q -pl bench package
 * java -jar bench/target/benchmarks.jar DecisionEventBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class DecisionEventBenchmark {

    private RoutingDecision event;
    private byte[] json;

    @Setup(Level.Trial)
    public void setUp() {
        RouteDecision decision = new DecisionEngine().decide(new DecisionInput(812, 0.52, null, null, 50),
                DecisionBenchmark.fleet(), PolicyDocument.defaults());
        event = RoutingDecision.builder().eventId("0b5f3c1e-6a0d-4a57-9d1e-2f8c3b7a9e41").occurredAt(Instant.now())
                .schemaVersion(RoutingDecision.SCHEMA_VERSION).requestId("req_01JEXAMPLE7f3a9c2d")
                .sessionHash("9c1e4b7a").apiKeyId("key-ab12").clientApi("anthropic")
                .requestedModel("claude-sonnet-4-5").streaming(false).tier(decision.tier())
                .cluster(decision.cluster()).node(decision.node()).nodesTried(List.of(decision.node()))
                .tokenCount(812).complexityScore(0.52).complexityModelVersion("cx-ngrams-2.b18-a3-l0.01-m11")
                .policyVersion(3).rulesFired(decision.rulesFired()).cacheHit(false)
                .prefixBlockHashes(List.of(1234567890123L, -42L, 981234098123L)).routeTimeMicros(180)
                .ttfbMillis(95).chunkIntervalVarianceMs2(3.5).totalLatencyMillis(2_400).inputTokens(812)
                .outputTokens(256).status(DecisionStatus.OK).httpStatus(200)
                .candidates(decision.candidates().stream().map(ScoredCandidate::forEvent).toList()).build();
        json = EventCodec.encode(event);
        System.out.printf("%ndecision event: %d candidates, %d bytes of JSON%n", event.candidates().size(),
                json.length);
    }

    /** What the router's publishing thread spends on each event before the producer. */
    @Benchmark
    public byte[] encode() {
        return EventCodec.encode(event);
    }

    /** What each consumer group spends on each event it reads. */
    @Benchmark
    public RoutingDecision decode() {
        return EventCodec.decode(json, RoutingDecision.class, event.requestId());
    }
}
