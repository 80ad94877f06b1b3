package dev.zerolayer.bench.tokens;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What exact prefix hashing costs the router per request for a node serving Qwen3: an OpenAI chat body of ~2,000 and
 * ~32,000 tokens prepared as vLLM prepares it, rendered through Qwen3's chat template and tokenized with Qwen3's own
 * tokenizer (the Rust library through DJL), then hashed in vLLM's sha256_cbor chain; beside the cl100k count the router
 * makes for every request anyway. Three cases: the same conversation again (every run of text already encoded), the
 * conversation with one new user turn (the usual next request of a session: only the new turn is encoded), and a
 * conversation no text of which was seen before (everything encoded). Reads Qwen3's files from
 * {@code ../shared/data/tokenizers/qwen3} (or {@code -Dqwen3=DIR}).
 *
 * <pre>
 * ./mvnw -B -o -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ServedModelBenchmark -f 1 -wi 3 -w 2s -i 5 -r 3s -bm sample -tu us
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class ServedModelBenchmark {

    @Param({"2000", "32000"})
    public int tokens;

    private ServedModel model;
    private ObjectNode body;
    private int[] ids;
    private VllmBlockHasher hasher;
    private long counter;
    private TokenCounter cl100k;
    private String joined;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Path files = Path.of(System.getProperty("qwen3", "../shared/data/tokenizers/qwen3")).toAbsolutePath()
                .normalize();
        if (!Files.isDirectory(files)) {
            throw new IllegalStateException("Qwen3 tokenizer files not found at " + files + " (-Dqwen3=DIR)");
        }
        model = ServedModel.load(files.toString());
        body = conversation(tokens);
        ids = model.chat(body).ids();
        hasher = new VllmBlockHasher(16, "42", null);
        cl100k = TokenCounter.defaultCounter();
        StringBuilder all = new StringBuilder();
        body.path("messages").forEach(m -> all.append(m.path("content").asString()).append('\n'));
        joined = all.toString();
        System.out.printf("%nconversation: %d Qwen3 prompt tokens (%d messages), %d cl100k tokens%n", ids.length,
                body.path("messages").size(), cl100k.count(joined));
    }

    /** A conversation of about {@code tokens} tokens: a system prompt, then user/assistant turns of mixed prose. */
    static ObjectNode conversation(int tokens) {
        ObjectNode body = EventCodec.mapper().createObjectNode().put("model", "Qwen/Qwen3-0.6B");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", "You are a careful assistant for an operations "
                + "team. Answer briefly, cite the runbook section, and never invent metrics.");
        String[] turns = {
            "The nightly export job failed again because the disk on the reporting replica was full; the on-call "
                + "engineer cleared old snapshots and restarted the job, which then finished two hours late. ",
            "夜间导出任务再次失败，因为报表副本的磁盘已满；值班工程师清理了旧快照并重启了任务。 ",
            "def retry(job, attempts=3):\n    for i in range(attempts):\n        if job.run():\n            return True\n"
                + "    return False\n",
            "Latency p99 rose from 120 ms to 480 ms between 02:00 and 02:40 UTC; GC pauses account for 60 ms. "};
        int approx = 0;
        int turn = 0;
        while (approx < tokens) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                text.append(turns[(turn + i) % turns.length]);
            }
            messages.addObject().put("role", turn % 2 == 0 ? "user" : "assistant").put("content", text.toString());
            approx += text.length() / 4 + 5;
            turn++;
        }
        if (turn % 2 == 0) {
            messages.addObject().put("role", "user").put("content", "What should we change first?");
        }
        return body;
    }

    /** Prepare, render and tokenize the same conversation again: the ids a vLLM node would feed its model. */
    @Benchmark
    public int[] chatIdsRepeated() {
        return model.chat(body).ids();
    }

    /** The conversation with one new user turn, hashed in vLLM's chain: a session's next request. */
    @Benchmark
    public long[] chatNewTurnAndHashes() {
        ObjectNode next = body.deepCopy();
        ((ArrayNode) next.path("messages")).addObject().put("role", "user").put("content", "Follow-up question "
                + (counter++) + ": which of these steps should the on-call engineer take first, and why?");
        return hasher.hashChain(model.chat(next).ids());
    }

    /** A conversation none of whose texts was seen before (every message made unique), hashed: the worst case. */
    @Benchmark
    public long[] chatColdAndHashes() {
        ObjectNode cold = body.deepCopy();
        long mark = counter++;
        for (var message : cold.path("messages")) {
            ((ObjectNode) message).put("content", "#" + mark + " " + message.path("content").asString());
        }
        return hasher.hashChain(model.chat(cold).ids());
    }

    /** Tokenizing the texts alone, never seen before (the Rust tokenizer's share). */
    @Benchmark
    public int tokenizeOnlyCold() {
        return model.tokenizer().ids((counter++) + joined).length;
    }

    /** The count every request pays today (cl100k over the texts). */
    @Benchmark
    public int cl100kCount() {
        return cl100k.count(joined);
    }

    /** sha256_cbor over the ids alone. */
    @Benchmark
    public long[] hashOnly() {
        return hasher.hashChain(ids);
    }
}
