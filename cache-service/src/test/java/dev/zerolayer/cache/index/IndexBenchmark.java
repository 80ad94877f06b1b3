package dev.zerolayer.cache.index;

import dev.zerolayer.cache.ingest.KvEventIngest;
import dev.zerolayer.cache.ingest.NodeModes;
import dev.zerolayer.cache.lookup.PrefixLookup;
import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.PrefixOverlap;
import dev.zerolayer.routing.tokens.TokenCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Index figures of issue #7 (not a test; run by hand, see docs/benchmarks.md): memory and update rate of the
 * cache-service index at 1,000,000 blocks over 100 nodes, memory of the same index as a router's compacted view holds
 * it, and lookup time for an 8,000-token prompt.
 */
public final class IndexBenchmark {

    static final int NODES = 100;
    static final int CHAIN = 64; // blocks per stored prompt (1,024 tokens)
    static final int BLOCKS = 1_000_000;

    public static void main(String[] args) {
        Random random = new Random(42);
        int chains = BLOCKS / CHAIN + 1;
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add("node-" + i);
        }
        // each prompt chain is stored on one node; a quarter of them on a second node too, one in twenty on a third
        List<KvCacheEvent> events = new ArrayList<>();
        long[] sequence = new long[NODES];
        long distinct = 0;
        for (int c = 0; c < chains && distinct < BLOCKS; c++) {
            int blocks = (int) Math.min(CHAIN, BLOCKS - distinct);
            Long[] chain = new Long[blocks];
            for (int b = 0; b < blocks; b++) {
                chain[b] = random.nextLong();
            }
            distinct += blocks;
            int copies = random.nextInt(20) == 0 ? 3 : random.nextInt(4) == 0 ? 2 : 1;
            int first = random.nextInt(NODES);
            for (int k = 0; k < copies; k++) {
                int n = (first + k * 37) % NODES;
                events.add(new KvCacheEvent("e", Instant.EPOCH, 1, nodes.get(n), ++sequence[n],
                        KvEventType.BLOCK_STORED, Arrays.asList(chain), null, 16));
            }
        }
        System.out.printf("workload: %,d distinct blocks over %d nodes, %,d BLOCK_STORED events of %d blocks%n",
                distinct, NODES, events.size(), CHAIN);

        long base = usedAfterGc();
        BlockIndex index = new BlockIndex(65_536);
        KvEventIngest ingest = new KvEventIngest(index, new NodeModes(), node -> { }, node -> false,
                new SimpleMeterRegistry());
        long start = System.nanoTime();
        for (KvCacheEvent event : events) {
            ingest.apply(event);
        }
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        long pairs = index.pairs();
        System.out.printf("build: %,d events, %,d (block,node) pairs in %.2f s = %,.0f events/s, %,.0f pairs/s%n",
                events.size(), pairs, loadSeconds, events.size() / loadSeconds, pairs / loadSeconds);

        // the first drain after the build: every block once (what a fresh publication sends)
        start = System.nanoTime();
        int drained = 0;
        long bytes = 0;
        Instant now = Instant.now();
        List<BlockIndex.Change> batch;
        while (!(batch = index.drainChanges(20_000, null)).isEmpty()) {
            for (BlockIndex.Change change : batch) {
                bytes += EventCodec.encode(new KvIndexEntry("00000000-0000-0000-0000-000000000000", now, 1,
                        change.blockHash(), null, change.nodes())).length;
                drained++;
            }
        }
        double drainSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("drain + JSON encode of every index record: %,d records (%.1f MB) in %.2f s = %,.0f/s%n",
                drained, bytes / 1e6, drainSeconds, drained / drainSeconds);
        long indexBytes = usedAfterGc() - base;
        System.out.printf("index memory: %.1f MB for %,d blocks (%,d pairs): %.1f bytes/block (table %,d slots)%n",
                indexBytes / 1e6, index.blocks(), pairs, (double) indexBytes / index.blocks(), index.tableCapacity());

        // the same index as a router's CompactedView<KvIndexEntry> holds it, fed the JSON records it would read
        long beforeView = usedAfterGc();
        CompactedView<KvIndexEntry> view = new CompactedView<>(Topics.CACHE_KV_INDEX_TOPIC, new EventReader(new SimpleMeterRegistry()), Clock.systemUTC());
        start = System.nanoTime();
        for (KvCacheEvent event : events) {
            for (Long block : event.blockHashes()) {
                List<String> holders = index.holders(block);
                if (holders.isEmpty() || view.get(Long.toUnsignedString(block)).isPresent()) {
                    continue;
                }
                KvIndexEntry entry = new KvIndexEntry(java.util.UUID.randomUUID().toString(), Instant.now(), 1, block,
                        null, holders);
                view.accept(MessageBuilder.withPayload(EventCodec.encode(entry))
                        .setHeader(KafkaHeaders.RECEIVED_KEY, entry.key().getBytes(StandardCharsets.UTF_8))
                        .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_INDEX).build());
            }
        }
        double viewSeconds = (System.nanoTime() - start) / 1e9;
        long viewBytes = usedAfterGc() - beforeView;
        System.out.printf("router view: %,d entries read in %.2f s (%,.0f records/s); memory %.1f MB = %.0f "
                + "bytes/entry%n", view.size(), viewSeconds, view.size() / viewSeconds, viewBytes / 1e6,
                (double) viewBytes / view.size());

        // churn: evict a quarter of each node's blocks and store new ones, as a busy LRU does
        List<KvCacheEvent> churn = new ArrayList<>();
        for (KvCacheEvent event : events.subList(0, events.size() / 4)) {
            int n = Integer.parseInt(event.nodeId().substring(5));
            churn.add(new KvCacheEvent("e", Instant.EPOCH, 1, event.nodeId(), ++sequence[n],
                    KvEventType.BLOCK_REMOVED, event.blockHashes(), null, 16));
            Long[] fresh = new Long[CHAIN];
            for (int b = 0; b < CHAIN; b++) {
                fresh[b] = random.nextLong();
            }
            churn.add(new KvCacheEvent("e", Instant.EPOCH, 1, event.nodeId(), ++sequence[n],
                    KvEventType.BLOCK_STORED, Arrays.asList(fresh), null, 16));
        }
        start = System.nanoTime();
        for (KvCacheEvent event : churn) {
            ingest.apply(event);
        }
        double churnSeconds = (System.nanoTime() - start) / 1e9;
        int coalesced = 0;
        while (!(batch = index.drainChanges(50_000, null)).isEmpty()) {
            coalesced += batch.size();
        }
        System.out.printf("churn: %,d events (%,d block updates) in %.2f s = %,.0f events/s, %,.0f updates/s; "
                + "%,d index records to publish after coalescing%n", churn.size(), (long) churn.size() * CHAIN,
                churnSeconds, churn.size() / churnSeconds, churn.size() * (double) CHAIN / churnSeconds, coalesced);

        // an 8,000-token prompt whose first 300 blocks are held by three nodes (200 of them by a fourth)
        TokenCounter counter = TokenCounter.defaultCounter();
        StringBuilder text = new StringBuilder();
        Random words = new Random(3);
        while (counter.count(text.toString()) < 8_000) {
            text.append("word").append(words.nextInt(50_000)).append(words.nextInt(10) == 0 ? ". " : " ");
        }
        Conversation conversation = new Conversation("You are a careful analyst.", List.of(Turn.user(text.toString())));
        FastBlockHasher hasher = new FastBlockHasher(16, 0);
        long[] chain = hasher.hashChain(counter.encode(conversation).ids());
        for (int i = 0; i < 300; i++) {
            for (String node : List.of("node-1", "node-2", "node-3")) {
                index.add(chain[i], node);
            }
            if (i < 200) {
                index.add(chain[i], "node-4");
            }
        }
        for (int i = 0; i < 300; i++) {
            List<String> holders = index.holders(chain[i]);
            view.accept(MessageBuilder.withPayload(EventCodec.encode(new KvIndexEntry("e", Instant.now(), 1,
                    chain[i], null, holders))).setHeader(KafkaHeaders.RECEIVED_KEY,
                    Long.toUnsignedString(chain[i]).getBytes(StandardCharsets.UTF_8))
                    .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.CACHE_KV_INDEX).build());
        }
        PrefixLookup lookup = new PrefixLookup(counter, hasher, index);
        System.out.printf("prompt: %,d tokens, %d blocks; lookup says %s%n", counter.encode(conversation).ids().length,
                chain.length, lookup.lookup(conversation).nodes().subList(0, 4));
        report("lookup, whole (tokenize + hash + index)", 300, 3_000, () -> lookup.lookup(conversation));
        report("lookup, index part only (500-block chain)", 2_000, 20_000, () -> index.leadingBlocks(chain));
        report("tokenize + hash only (8,000 tokens)", 2_000, 20_000, () -> hasher.hashChain(counter.encode(conversation)
                .ids()));
        report("router view prefix overlap (500-block chain)", 2_000, 20_000, () -> PrefixOverlap.leadingBlocks(
                chain, block -> view.get(Long.toUnsignedString(block)).map(KvIndexEntry::nodes).orElse(null)));
    }

    private static void report(String what, int warmup, int runs, Runnable action) {
        for (int i = 0; i < warmup; i++) {
            action.run();
        }
        long[] nanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t = System.nanoTime();
            action.run();
            nanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(nanos);
        System.out.printf("%s: p50 %.1f us, p99 %.1f us, max %.1f us (%,d runs)%n", what, nanos[runs / 2] / 1e3,
                nanos[(int) (runs * 0.99)] / 1e3, nanos[runs - 1] / 1e3, runs);
    }

    private static long usedAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
