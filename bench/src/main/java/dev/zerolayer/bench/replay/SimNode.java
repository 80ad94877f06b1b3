package dev.zerolayer.bench.replay;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated serving node, the node-simulator's latency model as discrete events with vLLM's scheduling: requests
 * wait first-in first-out; the node prefills one at a time (its prefill rate is the whole node's compute) while fewer
 * than {@code capacity} run; when a prefill starts, the prompt's leading cached blocks are found (they cost nothing) and
 * the whole prompt is stored in the KV LRU; prefill takes the overhead plus the uncached tokens at the prefill rate;
 * then every running request decodes one token per inter-token time, slowed by the number running. Faults: a slowdown
 * factor (SM saturation), an added inter-token time (bandwidth), a crash (every request fails, new ones are refused)
 * and a warm-up (nothing starts until it ends).
 */
public final class SimNode {

    /** Where a request is on the node. */
    public enum Phase { WAITING, PREFILLING, DECODING, DONE }

    /** The node's serving status. */
    public enum Status { SERVING, WARMING, CRASHED }

    /** What the node tells the router about a request it holds. */
    public interface Listener {
        void firstToken(Job job, double at);

        void completed(Job job, double at);

        void failed(Job job, double at, String reason, boolean afterFirstToken);
    }

    /** One attempt of a request on this node. */
    public static final class Job {
        final SimRequest request;
        final Listener listener;
        Phase phase = Phase.WAITING;
        int cachedTokens;
        double remainingTokens;
        boolean firstTokenSent;

        public Job(SimRequest request, Listener listener) {
            this.request = request;
            this.listener = listener;
        }

        public SimRequest request() {
            return request;
        }

        public int cachedTokens() {
            return cachedTokens;
        }

        public Phase phase() {
            return phase;
        }
    }

    /** Connection refused by a crashed node after this long. */
    static final double REFUSE_SECONDS = 0.001;

    private final EventLoop loop;
    private final FleetSpec.Member member;
    private final NodeProfile profile;
    private final BlockLru kv;
    private final double utilStart;
    private final double utilEnd;

    private Status status = Status.SERVING;
    private double warmEnd;
    private long warmVersion;
    private final ArrayDeque<Job> waiting = new ArrayDeque<>();
    private Job prefilling;
    private long prefillVersion;
    private final List<Job> decoding = new ArrayList<>();
    private long decodeVersion;
    private double lastDecodeAdvance;
    private double slowdown = 1.0;
    private double extraInterTokenSeconds;
    private boolean smSaturated;
    private boolean bandwidthDegraded;
    private double utilIntegral;
    private double lastUtilMark;
    private long prefillTokens;

    public SimNode(EventLoop loop, FleetSpec.Member member, double utilStart, double utilEnd) {
        this.loop = loop;
        this.member = member;
        this.profile = member.profile();
        this.kv = new BlockLru(profile.kvBlocks());
        this.utilStart = utilStart;
        this.utilEnd = utilEnd;
        this.lastDecodeAdvance = loop.now();
        this.lastUtilMark = loop.now();
    }

    public FleetSpec.Member member() {
        return member;
    }

    public String id() {
        return member.id();
    }

    public Status status() {
        return status;
    }

    public double warmEnd() {
        return warmEnd;
    }

    public NodeProfile profile() {
        return profile;
    }

    /** Leading prompt blocks this node holds (a router's view of the KV index). */
    public int prefixBlocksHeld(long[] blocks) {
        return kv.leadingHits(blocks);
    }

    public int cachedBlocks() {
        return kv.size();
    }

    public double kvUsage() {
        return (double) kv.size() / kv.capacity();
    }

    public long evictions() {
        return kv.evictions();
    }

    /** Requests running (the one prefilling and those decoding), as vLLM's {@code num_requests_running}. */
    public int running() {
        return (prefilling != null ? 1 : 0) + decoding.size();
    }

    /**
     * The GPU's busy share now: 1 while a prefill runs (compute-bound), else the share of decode slots in use (a
     * memory-bound decode batch); SM activity is reported from it.
     */
    public double busyShare() {
        return prefilling != null ? 1.0 : Math.min(1.0, (double) decoding.size() / profile.capacity());
    }

    public int waiting() {
        return waiting.size();
    }

    public boolean smSaturated() {
        return smSaturated;
    }

    public boolean bandwidthDegraded() {
        return bandwidthDegraded;
    }

    /** Tokens processed per second now: decode of every running request plus the prefill in progress. */
    public double tokensPerSecond() {
        double decode = decoding.isEmpty() ? 0 : decoding.size() / interTokenSeconds();
        double prefill = prefilling != null ? profile.prefillTokensPerSecond() / slowdown : 0;
        return decode + prefill;
    }

    public long prefillTokens() {
        return prefillTokens;
    }

    /** Time-averaged busy share between the start and end of the measured span. */
    public double utilisation() {
        markUtil();
        return utilEnd > utilStart ? utilIntegral / (utilEnd - utilStart) : 0.0;
    }

    /** Hands a request to the node: a crashed node refuses it, otherwise it waits for a slot. */
    public void submit(Job job) {
        if (status == Status.CRASHED) {
            job.phase = Phase.DONE;
            loop.after(REFUSE_SECONDS, () -> job.listener.failed(job, loop.now(), "connection_refused", false));
            return;
        }
        job.phase = Phase.WAITING;
        waiting.addLast(job);
        admit();
    }

    /** The router gave up on a request (time-to-first-byte limit): it leaves the node and frees its slot. */
    public void cancel(Job job) {
        if (job.phase == Phase.DONE) {
            return;
        }
        changing();
        switch (job.phase) {
            case WAITING -> waiting.remove(job);
            case PREFILLING -> {
                prefilling = null;
                prefillVersion++;
            }
            case DECODING -> decoding.remove(job);
            default -> {
            }
        }
        job.phase = Phase.DONE;
        changed();
        admit();
    }

    /** SM saturation: prefill and decode {@code factor} times slower while on; SM reported above 95 %. */
    public void smSaturation(boolean on, double factor) {
        changing();
        smSaturated = on;
        slowdown = on ? factor : 1.0;
        changed();
    }

    /** Bandwidth degradation: every inter-token time grows by {@code extraSeconds} while on. */
    public void bandwidthDegradation(boolean on, double extraSeconds) {
        changing();
        bandwidthDegraded = on;
        extraInterTokenSeconds = on ? extraSeconds : 0.0;
        changed();
    }

    /** The node's process dies: every request it holds fails, its KV cache is lost, new requests are refused. */
    public void crash() {
        List<Job> lost = dropAll();
        status = Status.CRASHED;
        warmVersion++;
        notifyLost(lost, "connection_reset");
    }

    /**
     * The node (re)starts: requests it held fail, its KV cache is empty, and it warms up (CUDA graphs) for
     * {@code warmupSeconds} before admitting anything.
     */
    public void restart(double warmupSeconds) {
        List<Job> lost = dropAll();
        status = Status.WARMING;
        warmEnd = loop.now() + warmupSeconds;
        long version = ++warmVersion;
        loop.at(warmEnd, () -> endWarmup(version));
        notifyLost(lost, "connection_reset");
    }

    private void endWarmup(long version) {
        if (version != warmVersion || status != Status.WARMING) {
            return;
        }
        status = Status.SERVING;
        admit();
        changed();
    }

    private List<Job> dropAll() {
        changing();
        List<Job> lost = new ArrayList<>(waiting);
        if (prefilling != null) {
            lost.add(prefilling);
        }
        lost.addAll(decoding);
        waiting.clear();
        prefilling = null;
        prefillVersion++;
        decoding.clear();
        kv.clear();
        changed();
        return lost;
    }

    private void notifyLost(List<Job> lost, String reason) {
        for (Job job : lost) {
            boolean after = job.firstTokenSent;
            job.phase = Phase.DONE;
            job.listener.failed(job, loop.now(), after ? "stream_cut" : reason, after);
        }
    }

    private void admit() {
        changing();
        changed();
    }

    /** Starts the next prefill when the GPU's prefill is free, a run slot is free and the node serves. */
    private void startPrefill() {
        if (prefilling != null || status != Status.SERVING || waiting.isEmpty()
                || decoding.size() >= profile.capacity()) {
            return;
        }
        Job job = waiting.pollFirst();
        prefilling = job;
        job.phase = Phase.PREFILLING;
        int hits = kv.admit(job.request.blocks());
        job.cachedTokens = Math.min(job.request.contextTokens(), hits * SimRequest.BLOCK_TOKENS);
        int uncached = job.request.contextTokens() - job.cachedTokens;
        prefillTokens += uncached;
        long version = ++prefillVersion;
        loop.after(profile.prefillSeconds(uncached) * slowdown, () -> prefillDone(version));
    }

    private void prefillDone(long version) {
        if (version != prefillVersion || prefilling == null) {
            return;
        }
        changing();
        Job job = prefilling;
        prefilling = null;
        job.firstTokenSent = true;
        job.remainingTokens = job.request.generatedTokens() - 1;
        boolean finished = job.remainingTokens <= 0;
        if (finished) {
            job.phase = Phase.DONE;
        } else {
            job.phase = Phase.DECODING;
            decoding.add(job);
        }
        changed();
        job.listener.firstToken(job, loop.now());
        if (finished) {
            job.listener.completed(job, loop.now());
            admit();
        }
    }

    private double interTokenSeconds() {
        return profile.interTokenSeconds(running()) * slowdown + extraInterTokenSeconds;
    }

    /** Brings decode progress and the utilisation integral up to now, before anything that changes the batch. */
    private void changing() {
        markUtil();
        double now = loop.now();
        if (!decoding.isEmpty() && now > lastDecodeAdvance) {
            double tokens = (now - lastDecodeAdvance) / interTokenSeconds();
            for (Job job : decoding) {
                job.remainingTokens -= tokens;
            }
        }
        lastDecodeAdvance = now;
    }

    /** After a change: the next prefill, then the next decode completion at the batch that results. */
    private void changed() {
        startPrefill();
        long version = ++decodeVersion;
        if (!decoding.isEmpty()) {
            double least = Double.MAX_VALUE;
            for (Job job : decoding) {
                least = Math.min(least, job.remainingTokens);
            }
            loop.after(Math.max(0, least) * interTokenSeconds(), () -> decodeTick(version));
        }
    }

    private void decodeTick(long version) {
        if (version != decodeVersion) {
            return;
        }
        changing();
        List<Job> finished = new ArrayList<>();
        for (Job job : decoding) {
            if (job.remainingTokens <= 1e-6) {
                finished.add(job);
            }
        }
        decoding.removeAll(finished);
        finished.forEach(job -> job.phase = Phase.DONE);
        changed();
        for (Job job : finished) {
            job.listener.completed(job, loop.now());
        }
        admit();
    }

    private void markUtil() {
        double now = loop.now();
        double from = Math.max(lastUtilMark, utilStart);
        double to = Math.min(now, utilEnd);
        if (to > from) {
            utilIntegral += busyShare() * (to - from);
        }
        lastUtilMark = Math.max(lastUtilMark, now);
    }
}
