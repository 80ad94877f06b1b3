package dev.zerolayer.bench.complexity;

import dev.zerolayer.routing.complexity.ComplexityModels;
import dev.zerolayer.routing.complexity.ComplexityScore;
import dev.zerolayer.routing.complexity.ComplexityScorer;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;
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
 * Time to score a ~2,000-token conversation (system prompt, five turns of English, Chinese, code and maths) with the
 * built-in model and with the learned one (its n-grams read the newest user turn) — tokenization excluded — next to the time to count its tokens with cl100k_base, and the scorer's
 * time on a ~200k-token prompt (bounded by its reading windows).
 *
 * <p>Build and run (from the project root):
 * <pre>
 * ./mvnw -B -o -q -pl bench package
 * java -jar bench/target/benchmarks.jar ScorerBenchmark -f 1 -wi 2 -i 3 -bm sampletime -tu us
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(1)
public class ScorerBenchmark {

    /** {@code lexical}: the lexical model (named features only); {@code learned}: the default, with hashed n-grams. */
    @Param({"lexical", "learned"})
    public String model;

    private ComplexityScorer scorer;
    private TokenCounter tokens;
    private Conversation conversation;
    private Conversation huge;

    @Setup(Level.Trial)
    public void setUp() {
        scorer = model.equals("learned") ? ComplexityScorer.defaultScorer()
                : ComplexityScorer.withModel(ComplexityModels.lexical());
        tokens = TokenCounter.defaultCounter();
        conversation = conversation();
        int count = tokens.count(conversation);
        if (count < 1_800 || count > 2_300) {
            throw new IllegalStateException("benchmark conversation should be ~2,000 tokens, is " + count);
        }
        huge = Conversation.ofUser("Summarize the incident reports below and list the root causes in a table.\n"
                + ("The nightly export job failed again because the disk on the reporting replica was full; the on-call "
                + "engineer cleared old snapshots and restarted the job, which then finished two hours late. ")
                .repeat(4_000));
        System.out.printf("%nconversation: %d tokens, %d chars, score %.3f; huge prompt: %d chars (~200k tokens)%n",
                count, conversation.totalChars(), scorer.scoreValue(conversation), huge.totalChars());
    }

    /** The request hot path: features plus the logistic, no explanation objects. */
    @Benchmark
    public double scoreValue() {
        return scorer.scoreValue(conversation);
    }

    /** The explained score (feature map, sorted drivers), as returned to complexity-service callers. */
    @Benchmark
    public ComplexityScore scoreExplained() {
        return scorer.score(conversation);
    }

    /** A ~200k-token prompt: the scorer reads bounded windows, so its time stays flat. */
    @Benchmark
    public double scoreValueHugePrompt() {
        return scorer.scoreValue(huge);
    }

    /** Real BPE token count of the same conversation (what the tier table needs anyway). */
    @Benchmark
    public int countTokens() {
        return tokens.count(conversation);
    }

    static Conversation conversation() {
        String system = "You are a senior backend engineer at a logistics company. Answer precisely, show code when it "
                + "helps, and point out risks. Our stack is Java 17, Spring Boot, PostgreSQL and Kafka. ";
        String english = "Our order service sometimes double-charges customers when the payment provider times out. "
                + "We retry the charge after five seconds, and the provider may have processed the first request. "
                + "We need an idempotent design that survives restarts and works across three instances. ";
        String code = "```java\npublic Payment charge(Order order) {\n    for (int attempt = 0; attempt < 3; attempt++) {"
                + "\n        try {\n            return client.charge(order.id(), order.total());\n        } catch "
                + "(TimeoutException e) {\n            log.warn(\"retrying {}\", order.id());\n        }\n    }\n"
                + "    throw new PaymentFailedException(order.id());\n}\n```\n";
        String chinese = "另外，财务同事要求每天对账：先导出前一天的所有支付记录，再和银行流水逐条比对，最后生成差异报告。"
                + "请说明如何保证对账任务在多实例部署下只执行一次，并估算每天一百万笔订单时的数据量。";
        String maths = "If each record is about 350 bytes and we keep 90 days, the table holds 1,000,000 * 90 = "
                + "90,000,000 rows, roughly 90e6 * 350 B = 31.5 GB before indexes. ";
        List<Turn> turns = new ArrayList<>();
        turns.add(Turn.user(english.repeat(5) + code));
        turns.add(Turn.assistant("Use an idempotency key per order and store the provider's response before "
                + "acknowledging. " + english.repeat(4) + code));
        turns.add(Turn.user(chinese.repeat(3) + maths.repeat(2)));
        turns.add(Turn.assistant("对账任务可以用分布式锁或者数据库唯一约束保证只执行一次。" + maths + english + code
                + maths));
        turns.add(Turn.user("First compare the outbox pattern with a distributed lock, then estimate storage for a "
                + "year, and finally give a migration plan as a table. " + english.repeat(11) + chinese));
        return new Conversation(system, turns);
    }
}
