package dev.zerolayer.bench.decision;

import dev.zerolayer.bench.replay.ZeroLayerPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.RouteDecision;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.PrefixOverlap;
import dev.zerolayer.routing.tokens.TokenCounter;
import dev.zerolayer.routing.ttft.TtftModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The router's per-request decision path in-process, as {@code RequestRouter} runs it: BPE-encode the conversation,
 * score its complexity, hash its leading KV blocks and look up which nodes hold them, then decide among 8 nodes of
 * the default policy's three tiers; for conversations of about 100, 2,000 and 8,000 tokens.
 *
 * <pre>
 * ./mvnw -B -o -q -pl bench package
 * java -jar bench/target/benchmarks.jar DecisionBenchmark -f 1 -wi 3 -i 5 -bm sample -tu us
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class DecisionBenchmark {

    @Param({"100", "2000", "8000"})
    public int tokens;

    /** The complexity model: {@code default} (the learned one) or {@code lexical} (the previous default). */
    @Param({"default", "lexical"})
    public String model;

    private TokenCounter counter;
    private ComplexityScorer scorer;
    private FastBlockHasher hasher;
    private DecisionEngine engine;
    private PolicyDocument policy;
    private Conversation conversation;
    private List<NodeCandidate> fleet;
    private Map<Long, List<String>> index;
    private List<NodeCandidate> ttftFleet;
    private PolicyDocument ttftPolicy;

    @Setup(Level.Trial)
    public void setUp() {
        counter = TokenCounter.defaultCounter();
        scorer = model.equals("lexical")
                ? ComplexityScorer.withModel(dev.zerolayer.routing.complexity.ComplexityModels.lexical())
                : ComplexityScorer.defaultScorer();
        hasher = new FastBlockHasher(16, 0);
        engine = new DecisionEngine();
        policy = PolicyDocument.defaults();
        conversation = conversationOf(tokens);
        int actual = counter.count(conversation);
        if (actual < tokens * 0.8 || actual > tokens * 1.2) {
            throw new IllegalStateException("conversation should be ~" + tokens + " tokens, is " + actual);
        }
        fleet = fleet();
        ttftFleet = new ArrayList<>();
        for (NodeCandidate node : fleet) {
            ttftFleet.add(node.withTtft(TtftModel.generic()));
        }
        PolicyDocument d = policy;
        ttftPolicy = new PolicyDocument(d.tiers(), d.tierTable(), d.chains(), d.standbyClusters(), d.thresholds(),
                d.limits(), d.resilience(), d.apiKeyOverrides(), d.refusalFallback(), d.alerting(),
                ZeroLayerPolicy.TTFT_SCORING, d.peakShapingTier());
        // Two nodes of every tier hold the first half of the prompt's blocks, one of them the whole prompt
        long[] chain = hasher.hashChain(counter.encode(conversation).ids());
        index = new HashMap<>();
        for (int b = 0; b < chain.length; b++) {
            List<String> holders = new ArrayList<>();
            for (int n = 0; n < fleet.size(); n += 3) {
                holders.add(fleet.get(n).nodeId());
                if (b < chain.length / 2 && n + 1 < fleet.size()) {
                    holders.add(fleet.get(n + 1).nodeId());
                }
            }
            index.put(chain[b], holders);
        }
        System.out.printf("%nconversation: %d tokens, %d blocks%n", actual, chain.length);
    }

    /** Encode + score + prefix lookup + decide: what the router spends before dispatch. */
    @Benchmark
    public RouteDecision decide() {
        TokenCounter.Encoded encoded = counter.encode(conversation);
        double complexity = scorer.scoreValue(conversation);
        long[] chain = hasher.hashChain(encoded.ids());
        Map<String, Integer> held = PrefixOverlap.leadingBlocks(chain, index::get);
        List<NodeCandidate> candidates = new ArrayList<>(fleet.size());
        for (NodeCandidate node : fleet) {
            candidates.add(new NodeCandidate(node.nodeId(), node.tier(), node.cluster(), node.state(),
                    node.healthScore(), node.load(), node.queueDepth(), node.capacity(), node.inFlight(),
                    node.breakerOpen(), held.getOrDefault(node.nodeId(), 0), node.clusterLoadSpike()));
        }
        return engine.decide(new DecisionInput(encoded.tokenCount(), Math.max(0, Math.min(1, complexity)), null,
                null, chain.length), candidates, policy);
    }

    /** The decision alone (no tokenization, scoring or hashing), over the same 8 nodes. */
    @Benchmark
    public RouteDecision decideOnly() {
        return engine.decide(new DecisionInput(tokens, 0.5, null, null, 0), fleet, policy);
    }

    /**
     * The decision alone under issue #31's TTFT policy (predicted-TTFT scorer, SLO filter, capacity downgrade), every
     * node carrying a TTFT model: the cost of the prediction terms against {@link #decideOnly()}.
     */
    @Benchmark
    public RouteDecision decideOnlyTtft() {
        return engine.decide(new DecisionInput(tokens, 0.5, null, null, 0), ttftFleet, ttftPolicy);
    }

    /** BPE encoding of the conversation alone, the largest share of the path. */
    @Benchmark
    public int encodeOnly() {
        return counter.encode(conversation).tokenCount();
    }

    /** Eight healthy nodes of the default policy's three tiers, with differing health, load and queues. */
    static List<NodeCandidate> fleet() {
        List<NodeCandidate> fleet = new ArrayList<>();
        String[][] placement = {{"haiku", "haiku-l4"}, {"haiku", "haiku-l4"}, {"haiku", "haiku-l4"},
                {"sonnet", "sonnet-a100-40g"}, {"sonnet", "sonnet-a100-40g"}, {"sonnet", "sonnet-standby"},
                {"opus", "opus-a100-80g"}, {"opus", "opus-a100-80g"}};
        for (int i = 0; i < placement.length; i++) {
            fleet.add(new NodeCandidate(placement[i][1] + "-" + i, placement[i][0], placement[i][1], NodeState.HEALTHY,
                    0.9 - 0.05 * i, 0.1 * (i % 5), i % 3, 32, i % 4, false, 0, false));
        }
        return fleet;
    }

    static Conversation conversationOf(int tokens) {
        String system = "You are a support assistant for a logistics company. Answer precisely and cite order ids.";
        String[] user = {
            "My order 48213 was supposed to arrive on Monday but the tracking page still says it is in Rotterdam. ",
            "Can you check whether the customs paperwork was filed, and if not, what I need to send you? ",
            "Also compare the express and standard rates for a 12 kg parcel from Hamburg to Lyon, in a table. ",
        };
        String assistant = "I checked order 48213: the customs declaration is pending a commercial invoice. ";
        TokenCounter counter = TokenCounter.defaultCounter();
        List<Turn> turns = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        while (counter.count(new Conversation(system, append(turns, current.toString()))) < tokens) {
            current.append(user[i % user.length]);
            i++;
            if (i % 6 == 0) {
                turns.add(Turn.user(current.toString()));
                turns.add(new Turn(Role.ASSISTANT, assistant));
                current.setLength(0);
            }
        }
        return new Conversation(system, append(turns, current.toString()));
    }

    private static List<Turn> append(List<Turn> turns, String last) {
        List<Turn> all = new ArrayList<>(turns);
        if (!last.isEmpty()) {
            all.add(Turn.user(last));
        }
        return all;
    }
}
