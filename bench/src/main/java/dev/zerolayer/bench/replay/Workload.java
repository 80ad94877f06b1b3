package dev.zerolayer.bench.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns trace rows into the replay's requests, the same for every policy and fixed by the seed. The trace has token
 * counts only, so a request's complexity is drawn by its own seeded uniform from a {@link ComplexitySource} (the real
 * scorer's score distribution over real prompts, or the formula fallback). Prefixes: with probability
 * {@value #CONTINUE_PROBABILITY} a request continues a conversation — one drawn uniformly among those of its source
 * file active in the last {@value #SESSION_WINDOW} s whose last prompt is shorter than its own — and its prompt opens
 * with that conversation's last prompt; otherwise it starts a conversation with one of {@code templatesPerSource}
 * system-prompt templates of its source drawn Zipf(s = {@value #ZIPF_EXPONENT}), 8–64 blocks (128–1,024 tokens) long,
 * covering at most all but the prompt's last full block. The rest of every prompt is unique. A load spike adds two
 * copies of every arrival inside its window (their own draws, arrival jittered within one second).
 */
public final class Workload {

    /** The first pass's fixed template count per source (kept for unit tests; the replay scales it, see below). */
    static final int TEMPLATES = 100;
    /** The trace's two source files (code, conversation), each with its own templates. */
    static final int SOURCES = 2;
    static final double ZIPF_EXPONENT = 1.0;
    static final int TEMPLATE_MIN_BLOCKS = 8;
    static final int TEMPLATE_MAX_BLOCKS = 64;
    static final int SPIKE_FACTOR = 3;
    static final double CONTINUE_PROBABILITY = 0.5;
    static final double SESSION_WINDOW = 300.0;

    /** A conversation's latest turn. */
    private static final class Session {
        double lastArrival;
        int lastContext;
        long[] lastBlocks;
        int template;
    }

    private final long seed;
    private final ComplexitySource complexity;
    private final Zipf zipf;

    /** The first pass's workload: formula complexity, {@value #TEMPLATES} templates per source. */
    public Workload(long seed) {
        this(seed, ComplexitySource.formula(null), TEMPLATES);
    }

    public Workload(long seed, ComplexitySource complexity, int templatesPerSource) {
        this.seed = seed;
        this.complexity = complexity;
        this.zipf = new Zipf(templatesPerSource, ZIPF_EXPONENT);
    }

    /**
     * The template rule: per source, as many templates as make the two sources' template sets together as large as the
     * fleet's total KV capacity at the mean template length — no node can hold them all, the fleet as a whole could.
     */
    public static int templatesFor(FleetSpec fleet) {
        long kv = fleet.members().stream().mapToLong(m -> m.profile().kvBlocks()).sum();
        double meanBlocks = (TEMPLATE_MIN_BLOCKS + TEMPLATE_MAX_BLOCKS) / 2.0;
        return (int) Math.max(1, Math.ceil(kv / meanBlocks / SOURCES));
    }

    /** The requests in arrival order, ids 0..n-1; {@code spikes} are [start, end) windows in seconds. */
    public List<SimRequest> build(List<TraceRequest> trace, List<double[]> spikes) {
        record Pending(TraceRequest row, double arrival, boolean copy, long key) {
        }
        List<Pending> pending = new ArrayList<>();
        for (int i = 0; i < trace.size(); i++) {
            TraceRequest row = trace.get(i);
            pending.add(new Pending(row, row.arrivalSeconds(), false, i));
            for (double[] window : spikes) {
                if (row.arrivalSeconds() >= window[0] && row.arrivalSeconds() < window[1]) {
                    for (int copy = 1; copy < SPIKE_FACTOR; copy++) {
                        SplittableRandom jitter = new SplittableRandom(mix(seed, 0x5B1CEL, i, copy));
                        double at = Math.min(window[1] - 1e-6, row.arrivalSeconds() + jitter.nextDouble());
                        pending.add(new Pending(row, at, true, ((long) copy << 40) | i));
                    }
                }
            }
        }
        pending.sort(Comparator.comparingDouble(Pending::arrival).thenComparingLong(Pending::key));
        Map<String, List<Session>> sessions = new HashMap<>();
        List<SimRequest> requests = new ArrayList<>(pending.size());
        for (int id = 0; id < pending.size(); id++) {
            Pending p = pending.get(id);
            requests.add(request(id, p.row(), p.arrival(), p.copy(), p.key(),
                    sessions.computeIfAbsent(p.row().source(), s -> new ArrayList<>())));
        }
        return requests;
    }

    private SimRequest request(int id, TraceRequest row, double arrival, boolean copy, long key,
            List<Session> sessions) {
        SplittableRandom random = new SplittableRandom(mix(seed, 0xC0FFEEL, key, 0));
        double complexity = complexityOf(key, row.contextTokens());
        int template = zipf.draw(random);
        boolean continues = random.nextDouble() < CONTINUE_PROBABILITY;
        double pick = random.nextDouble();
        sessions.removeIf(s -> s.lastArrival < arrival - SESSION_WINDOW);
        int full = row.contextTokens() / SimRequest.BLOCK_TOKENS;
        Session session = null;
        if (continues) {
            List<Session> open = sessions.stream().filter(s -> s.lastBlocks.length < full).toList();
            if (!open.isEmpty()) {
                session = open.get((int) (pick * open.size()));
            }
        }
        long sourceKey = row.source().hashCode();
        long[] blocks = new long[full];
        int shared;
        if (session != null) {
            template = session.template;
            shared = session.lastBlocks.length;
            System.arraycopy(session.lastBlocks, 0, blocks, 0, shared);
        } else {
            shared = Math.min(templateBlocks(sourceKey, template), Math.max(0, full - 1));
            for (int b = 0; b < shared; b++) {
                blocks[b] = mix(seed, sourceKey, template, b);
            }
            session = new Session();
            sessions.add(session);
        }
        for (int b = shared; b < full; b++) {
            blocks[b] = mix(seed, 0xB10CL, key, b);
        }
        session.lastArrival = arrival;
        session.lastContext = row.contextTokens();
        session.lastBlocks = blocks;
        session.template = template;
        return new SimRequest(id, row.source(), arrival, row.contextTokens(), Math.max(1, row.generatedTokens()),
                complexity, template, shared, blocks, copy);
    }

    /** A request's complexity from its own stream, so it does not depend on the template count. */
    double complexityOf(long key, int contextTokens) {
        return complexity.draw(new SplittableRandom(mix(seed, 0xC0A1E8L, key, 0)).nextDouble(), contextTokens);
    }

    private int templateBlocks(long sourceKey, int template) {
        SplittableRandom random = new SplittableRandom(mix(seed, sourceKey, template, -1));
        return TEMPLATE_MIN_BLOCKS + random.nextInt(TEMPLATE_MAX_BLOCKS - TEMPLATE_MIN_BLOCKS + 1);
    }

    /** A 64-bit mix of four values (SplitMix64 finaliser over a combination); distinct inputs, distinct streams. */
    static long mix(long a, long b, long c, long d) {
        long h = a * 0x9E3779B97F4A7C15L;
        h = fmix(h ^ b) * 0xBF58476D1CE4E5B9L;
        h = fmix(h ^ c) * 0x94D049BB133111EBL;
        return fmix(h ^ d);
    }

    private static long fmix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
