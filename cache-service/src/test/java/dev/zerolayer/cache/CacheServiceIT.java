package dev.zerolayer.cache;

import static dev.zerolayer.cache.TestEvents.decision;
import static dev.zerolayer.cache.TestEvents.health;
import static dev.zerolayer.cache.TestEvents.kv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zerolayer.cache.index.BlockIndex;
import dev.zerolayer.cache.session.SessionTracker;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.cache.SessionEntry;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.kafka.embedded.SharedKafka;
import dev.zerolayer.platform.testing.KafkaTestClient;
import dev.zerolayer.platform.testing.RunningService;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Turn;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.tokens.TokenCounter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * cache-service against the real broker and real HTTP: KV events (with duplicates, late and unknown removals, clears,
 * poison) and a real ZeroMQ vLLM publisher in → index entries and tombstones out; decisions in → approximate blocks,
 * sessions and a prewarm command out; stickiness yields to health; a DOWN node leaves the index; stats and lookup over
 * HTTP; after a restart the index and the sessions are rebuilt from Kafka and the compacted topics hold the same latest
 * value per key as before the restart (but for what changed meanwhile); only health and prometheus on the actuator.
 */
@ExtendWith(SharedKafka.class)
class CacheServiceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String[] FAST = {"zerolayer.cache.publish-interval=50ms",
        "zerolayer.cache.maintenance-interval=200ms", "zerolayer.cache.down-grace=1s"};
    private static final Random RANDOM = new Random();
    private static final List<String> HIDDEN_ACTUATORS = List.of("/actuator/env", "/actuator/beans",
            "/actuator/configprops", "/actuator/heapdump", "/actuator/threaddump", "/actuator/loggers",
            "/actuator/mappings", "/actuator/shutdown");

    /**
     * Decisions are read from the latest offset once the replica's consumer joins: a probe decision of a session of
     * its own is sent until the replica tracks it, so the decisions sent after this are read.
     */
    static void awaitReadingDecisions(KafkaTestClient kafka, RunningService service) {
        String probe = "probe-" + UUID.randomUUID();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            kafka.publish(Topics.ROUTER_DECISIONS, decision(probe, "probe-node", false, 1L));
            return service.bean(SessionTracker.class).get(probe, Instant.now()).isPresent();
        });
    }

    private static String servers() {
        return SharedKafka.broker().bootstrapServers();
    }

    private static long[] blocks(int n) {
        return RANDOM.longs(n).toArray();
    }

    @Test
    void indexesKvEventsAndTheBridgeTracksSessionsAndAnswersOverHttp() throws Exception {
        String a = "a-" + UUID.randomUUID();
        String b = "b-" + UUID.randomUUID();
        String quiet = "quiet-" + UUID.randomUUID();
        String other = "other-" + UUID.randomUUID();
        String vllm = "vllm-" + UUID.randomUUID();
        String session = UUID.randomUUID().toString().replace("-", "");
        long[] k = blocks(6);
        try (ZContext zmq = new ZContext(); KafkaTestClient kafka = new KafkaTestClient(servers())) {
            ZMQ.Socket pub = zmq.createSocket(SocketType.PUB);
            int port = pub.bindToRandomPort("tcp://127.0.0.1");
            String[] props = Arrays.copyOf(FAST, FAST.length + 3);
            props[FAST.length] = "zerolayer.cache.vllm-bridge.endpoints[0].node-id=" + vllm;
            props[FAST.length + 1] = "zerolayer.cache.vllm-bridge.endpoints[0].address=tcp://127.0.0.1:" + port;
            props[FAST.length + 2] = "zerolayer.cache.vllm-bridge.endpoints[0].topic=kv@";
            try (RunningService service = RunningService.start(CacheApplication.class, servers(), props)) {
                BlockIndex index = service.bean(BlockIndex.class);

                // Given node a stores three blocks and its first event is delivered twice
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 1, KvEventType.BLOCK_STORED, k[0], k[1], k[2]));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 1, KvEventType.BLOCK_STORED, k[5]));
                // Then each block is published with its holder, the duplicate's block never
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(k[0]), List.of(a)).containsEntry(key(k[1]), List.of(a))
                        .containsEntry(key(k[2]), List.of(a)).doesNotContainKey(key(k[5])));

                // When a removes one block (and one it never had), a late older event arrives, and node b — unknown
                // to node-health — stores, clears mid-stream and stores again
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 2, KvEventType.BLOCK_REMOVED, k[1], 424242L));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 1, KvEventType.BLOCK_REMOVED, k[0]));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(b, 5, KvEventType.BLOCK_STORED, k[0], k[3]));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(b, 6, KvEventType.ALL_BLOCKS_CLEARED));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(b, 7, KvEventType.BLOCK_STORED, k[4]));
                kafka.send(Topics.CACHE_KV_EVENTS, a, "{not json".getBytes(StandardCharsets.UTF_8));
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 3, KvEventType.BLOCK_STORED, k[3]));

                // Then the removed block is tombstoned, the others name their holders, the junk is dead-lettered
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(k[1]), null).containsEntry(key(k[0]), List.of(a))
                        .containsEntry(key(k[3]), List.of(a)).containsEntry(key(k[4]), List.of(b)));
                assertThat(index.holders(k[0])).containsExactly(a);
                String dlq = Topics.deadLetterTopic(Topics.CACHE_KV_EVENTS, Topics.CACHE);
                await().atMost(WAIT).untilAsserted(() -> assertThat(kafka.readAll(dlq)).anySatisfy(record ->
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(a)));

                // When a real vLLM publisher sends the captured hashes over ZeroMQ, after a malformed message
                byte[] stored = storedBatch(List.of(Long.parseUnsignedLong("17705339885301241772"),
                        Long.parseUnsignedLong("13360521540053240825")));
                long[] seq = {0};
                // in this thread: a ZeroMQ socket must not be used from Awaitility's polling threads
                await().pollInSameThread().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                    zmqSend(pub, "kv@" + vllm, seq[0]++, new byte[] {(byte) 0xc1});
                    zmqSend(pub, "kv@" + vllm, seq[0]++, stored);
                    return index.holds(Long.parseUnsignedLong("17705339885301241772"), vllm);
                });
                // Then the bridge's events went through cache.kv-events.v1 into the index and out again
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry("17705339885301241772", List.of(vllm)));
                assertThat(kafka.readAll(Topics.CACHE_KV_EVENTS)).anySatisfy(record ->
                        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(vllm));
                assertThat(service.get("/actuator/prometheus").body())
                        .containsPattern("zerolayer_cache_bridge_frames_total\\{[^}]*outcome=\"malformed\"[^}]*} [1-9]");

                // When the router sends three similar prompts of one session to a node without KV events
                long[] p = blocks(7);
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, quiet, true, Arrays.copyOf(p, 5)));
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, quiet, false, Arrays.copyOf(p, 6)));
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, quiet, true, p));

                // Then the node is assumed to hold the prompt's blocks, the session sticks to it with a streak of
                // three, and the node is asked to prewarm the five blocks the prompts share
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(p[0]), List.of(quiet)).containsEntry(key(p[6]), List.of(quiet)));
                await().atMost(WAIT).untilAsserted(() -> assertThat(sessionOf(kafka, session)).satisfies(entry -> {
                    assertThat(entry.stickyNode()).isEqualTo(quiet);
                    assertThat(entry.similarStreak()).isEqualTo(3);
                    assertThat(entry.recentPrefixes()).hasSize(3);
                }));
                await().atMost(WAIT).untilAsserted(() -> assertThat(prewarmsFor(kafka, quiet)).singleElement()
                        .satisfies(command -> {
                            assertThat(command.sessionHash()).isEqualTo(session);
                            assertThat(command.blockHashes()).containsExactly(p[0], p[1], p[2], p[3], p[4]);
                        }));

                // When the sticky node degrades and the session's next request goes elsewhere
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(quiet, NodeState.DEGRADED, 0.2));
                CompactedView<?> healthView = service.bean("nodeHealth", CompactedView.class);
                await().atMost(WAIT).until(() -> healthView.get(quiet).isPresent());
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, other, false, p));
                // Then the session moves at once
                await().atMost(WAIT).untilAsserted(() -> assertThat(sessionOf(kafka, session).stickyNode())
                        .isEqualTo(other));

                // When node b goes DOWN, then after the grace period its blocks leave the index
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(b, NodeState.DOWN, 0));
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(k[4]), null));

                // And the stats show blocks, nodes, modes, decisions and the hit ratio of the window
                String stats = service.get("/v1/cache/stats").body();
                assertThat(stats).contains("\"" + a + "\":{\"blocks\":3,\"mode\":\"events\",\"lastSequence\":3,"
                        + "\"staleDropped\":2,\"gaps\":0,\"decisions\":0,\"state\":null}")
                        .contains("\"" + quiet + "\":{\"blocks\":7,\"mode\":\"approximate\",\"lastSequence\":-1,"
                                + "\"staleDropped\":0,\"gaps\":0,\"decisions\":3,\"state\":\"DEGRADED\"}")
                        .contains("\"" + b + "\":{\"blocks\":0,\"mode\":\"events\"")
                        .contains("\"hitRatio\":{\"windowSeconds\":300,\"routed\":4,\"hits\":2,\"ratio\":0.5}")
                        .contains("\"blocks\":" + index.blocks() + ",");
                assertThat(service.bean(SessionTracker.class).size()).isGreaterThanOrEqualTo(1);

                // And a lookup of a conversation whose blocks node a holds reports a's leading overlap
                Conversation conversation = new Conversation("You answer questions about invoices, briefly.",
                        List.of(Turn.user("List every invoice of customer 4411 from October with its amount, due "
                                + "date and payment status, in a table sorted by due date please.")));
                long[] chain = new FastBlockHasher(16, 0).hashChain(
                        TokenCounter.defaultCounter().encode(conversation).ids());
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(a, 4, KvEventType.BLOCK_STORED,
                        Arrays.stream(chain).limit(2).boxed().toArray(Long[]::new)));
                await().atMost(WAIT).until(() -> index.holds(chain[1], a));
                String body = "{\"system\":\"You answer questions about invoices, briefly.\",\"messages\":[{\"role\":"
                        + "\"user\",\"content\":[{\"type\":\"text\",\"text\":\"List every invoice of customer 4411 "
                        + "from October with its amount, due \"},{\"type\":\"text\",\"text\":\"date and payment "
                        + "status, in a table sorted by due date please.\"}]}]}";
                HttpResponse<String> lookup = post(service, "/v1/cache/lookup", body);
                assertThat(lookup.statusCode()).isEqualTo(200);
                assertThat(lookup.body()).contains("\"promptBlocks\":" + chain.length)
                        .contains("{\"node\":\"" + a + "\",\"leadingBlocks\":2,");
                HttpResponse<String> bad = post(service, "/v1/cache/lookup", "{\"messages\":[{\"role\":\"robot\"}]}");
                assertThat(bad.statusCode()).isEqualTo(400);
                assertThat(bad.body()).startsWith("{\"type\":\"error\",\"error\":{")
                        .contains("\"type\":\"invalid_request_error\"")
                        .contains("\"message\":\"messages.0.role: must be one of assistant, user\"");
                assertThat(post(service, "/v1/cache/lookup", "").statusCode()).isEqualTo(400);

                // And an unknown path answers 404 and a wrong method 405, both in the API error shape
                HttpResponse<String> unknown = service.get("/v1/cache/nowhere");
                assertThat(unknown.statusCode()).isEqualTo(404);
                assertThat(unknown.body()).startsWith("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",")
                        .contains("\"message\":\"not found: GET /v1/cache/nowhere\"");
                HttpResponse<String> wrongMethod = service.get("/v1/cache/lookup");
                assertThat(wrongMethod.statusCode()).isEqualTo(405);
                assertThat(wrongMethod.body())
                        .startsWith("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",")
                        .contains("method not allowed: GET /v1/cache/lookup");

                // And the actuator shows health and prometheus only
                assertThat(service.get("/actuator/health").statusCode()).isEqualTo(200);
                assertThat(service.get("/actuator/prometheus").statusCode()).isEqualTo(200);
                for (String path : HIDDEN_ACTUATORS) {
                    assertThat(service.get(path).statusCode()).as(path).isEqualTo(404);
                }
                assertThat(post(service, "/actuator/shutdown", "{}").statusCode()).isEqualTo(404);
                assertThat(service.isActive()).isTrue();
            }
        }
    }

    @Test
    void rebuildsTheIndexAndTheSessionsFromKafkaAfterARestart() {
        String e = "e-" + UUID.randomUUID();
        String f = "f-" + UUID.randomUUID();
        String session = UUID.randomUUID().toString().replace("-", "");
        long[] c = blocks(3);
        long[] p = blocks(6);
        try (KafkaTestClient kafka = new KafkaTestClient(servers())) {
            try (RunningService first = RunningService.start(CacheApplication.class, servers(), FAST)) {
                awaitReadingDecisions(kafka, first);
                // Given a node with two blocks and a session with two similar prompts on an approximate node
                kafka.publish(Topics.CACHE_KV_EVENTS, kv(e, 1, KvEventType.BLOCK_STORED, c[0], c[1]));
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, f, false, Arrays.copyOf(p, 4)));
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, f, false, Arrays.copyOf(p, 5)));
                kafka.publish(Topics.TELEMETRY_NODE_HEALTH, health(e, NodeState.HEALTHY, 0.1));
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(c[0]), List.of(e)).containsEntry(key(p[4]), List.of(f)));
                await().atMost(WAIT).untilAsserted(() -> assertThat(sessionOf(kafka, session).similarStreak())
                        .isEqualTo(2));
            }
            // (stopped: nothing publishes on the compacted topics any more) what they hold before the restart
            Map<String, JsonNode> indexBefore = latestContent(kafka, Topics.CACHE_KV_INDEX);
            Map<String, JsonNode> sessionsBefore = latestContent(kafka, Topics.CACHE_SESSIONS);
            Map<Integer, Long> indexEnd = endOffsets(kafka, Topics.CACHE_KV_INDEX);
            Map<Integer, Long> sessionsEnd = endOffsets(kafka, Topics.CACHE_SESSIONS);
            assertThat(indexBefore).containsKeys(key(c[0]), key(c[1]), key(p[0]), key(p[4]));
            assertThat(sessionsBefore).containsKey(session);

            // When, while the service is stopped, the node drops one block, stores another and goes DOWN briefly
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(e, 2, KvEventType.BLOCK_REMOVED, c[0]));
            kafka.publish(Topics.CACHE_KV_EVENTS, kv(e, 3, KvEventType.BLOCK_STORED, c[2]));

            try (RunningService second = RunningService.start(CacheApplication.class, servers(), FAST)) {
                awaitReadingDecisions(kafka, second);
                BlockIndex index = second.bean(BlockIndex.class);
                // Then the index is what was published plus what happened since, and the change goes out
                await().atMost(WAIT).until(() -> index.holds(c[2], e) && !index.holds(c[0], e));
                assertThat(index.holders(c[1])).containsExactly(e);
                assertThat(index.holders(p[0])).as("approximate blocks read back").containsExactly(f);
                await().atMost(WAIT).untilAsserted(() -> assertThat(latest(kafka, Topics.CACHE_KV_INDEX))
                        .containsEntry(key(c[0]), null).containsEntry(key(c[2]), List.of(e)));

                // And the session continues: a third similar prompt triggers the prewarm
                kafka.publish(Topics.ROUTER_DECISIONS, decision(session, f, false, p));
                await().atMost(WAIT).untilAsserted(() -> assertThat(prewarmsFor(kafka, f)).singleElement()
                        .satisfies(command -> assertThat(command.blockHashes()).containsExactly(p[0], p[1], p[2],
                                p[3])));
                assertThat(sessionOf(kafka, session).similarStreak()).isEqualTo(3);
                CompactedView<?> healthView = second.bean("nodeHealth", CompactedView.class);
                await().atMost(WAIT).until(() -> healthView.get(e).isPresent());
                assertThat(second.get("/actuator/health").body())
                        .containsPattern("\"stateRestorer\":\\{\"details\":\\{\"blocks\":\\d+,[^}]*},\"status\":\"UP\"");
                assertThat(second.get("/v1/cache/stats").body()).contains("\"restored\":{");
            }

            // Then, the restarted service stopped too, the compacted topics hold the same latest value per key as
            // before, but for what changed meanwhile (c0 removed, c2 stored) and what the third prompt changed (its
            // new block p5, the session): no key lost, no value changed or flapped back, no conflicting entry
            Map<String, JsonNode> indexAfter = latestContent(kafka, Topics.CACHE_KV_INDEX);
            Map<String, JsonNode> sessionsAfter = latestContent(kafka, Topics.CACHE_SESSIONS);
            assertSameLatest(Topics.CACHE_KV_INDEX, indexBefore, indexAfter, Set.of(key(c[0])));
            assertNoOtherValueSince(kafka, Topics.CACHE_KV_INDEX, indexEnd, indexBefore, Set.of(key(c[0])));
            assertNoOtherValueSince(kafka, Topics.CACHE_SESSIONS, sessionsEnd, sessionsBefore, Set.of(session));
            assertThat(indexAfter.get(key(c[0]))).as("c0 tombstoned").isNull();
            assertThat(indexAfter.get(key(c[2])).get("nodes").toString()).isEqualTo("[\"" + e + "\"]");
            assertThat(indexAfter.get(key(p[5])).get("nodes").toString()).isEqualTo("[\"" + f + "\"]");
            assertSameLatest(Topics.CACHE_SESSIONS, sessionsBefore, sessionsAfter, Set.of(session));
            assertThat(sessionsAfter.get(session).get("similarStreak").asInt()).isEqualTo(3);
            indexAfter.forEach((block, entry) -> {
                if (entry != null) {
                    assertThat(Long.toUnsignedString(entry.get("blockHash").asLong())).isEqualTo(block);
                    List<String> nodes = new ArrayList<>();
                    entry.get("nodes").forEach(node -> nodes.add(node.asString()));
                    assertThat(nodes).as("holders of %s", block).isNotEmpty().doesNotHaveDuplicates();
                }
            });
            sessionsAfter.forEach((hash, entry) -> {
                if (entry != null) {
                    assertThat(entry.get("sessionHash").asString()).isEqualTo(hash);
                }
            });
        }
    }

    // ---- helpers ----

    /**
     * The latest value per key of a compacted topic, as JSON without its envelope (event id and time, which a
     * republication may renew); null for a tombstone.
     */
    private static Map<String, JsonNode> latestContent(KafkaTestClient kafka, String topic) {
        Map<String, JsonNode> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() == null) {
                latest.put(key, null);
            } else {
                ObjectNode content = (ObjectNode) EventCodec.mapper().readTree(record.value());
                content.remove("eventId");
                content.remove("occurredAt");
                latest.put(key, content);
            }
        }
        return latest;
    }

    /** The next offset per partition of a topic: what a later read must start after. */
    private static Map<Integer, Long> endOffsets(KafkaTestClient kafka, String topic) {
        Map<Integer, Long> end = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            end.merge(record.partition(), record.offset() + 1, Math::max);
        }
        return end;
    }

    /**
     * No record written since {@code end} gives a key of {@code before} (other than {@code changed}) another value,
     * not even for a moment: a restart may republish a key, never flap it.
     */
    private static void assertNoOtherValueSince(KafkaTestClient kafka, String topic, Map<Integer, Long> end,
            Map<String, JsonNode> before, Set<String> changed) {
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (record.offset() >= end.getOrDefault(record.partition(), 0L) && before.containsKey(key)
                    && !changed.contains(key)) {
                JsonNode content = null;
                if (record.value() != null) {
                    ObjectNode node = (ObjectNode) EventCodec.mapper().readTree(record.value());
                    node.remove("eventId");
                    node.remove("occurredAt");
                    content = node;
                }
                assertThat(content).as("%s: %s republished at partition %d offset %d", topic, key, record.partition(),
                        record.offset()).isEqualTo(before.get(key));
            }
        }
    }

    /** Every key of {@code before} is still there after, with the same latest value unless it is {@code changed}. */
    private static void assertSameLatest(String topic, Map<String, JsonNode> before, Map<String, JsonNode> after,
            Set<String> changed) {
        assertThat(after.keySet()).as("%s: keys lost over the restart", topic).containsAll(before.keySet());
        for (Map.Entry<String, JsonNode> entry : before.entrySet()) {
            if (!changed.contains(entry.getKey())) {
                assertThat(after.get(entry.getKey())).as("%s: latest value of %s", topic, entry.getKey())
                        .isEqualTo(entry.getValue());
            }
        }
    }

    private static String key(long block) {
        return Long.toUnsignedString(block);
    }

    /** The latest value per key of the index topic: its holders, or null for a tombstone. */
    private static Map<String, List<String>> latest(KafkaTestClient kafka, String topic) {
        Map<String, List<String>> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            latest.put(key, record.value() == null ? null
                    : EventCodec.decode(record.value(), KvIndexEntry.class, key).nodes());
        }
        return latest;
    }

    private static SessionEntry sessionOf(KafkaTestClient kafka, String session) {
        SessionEntry found = null;
        for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(Topics.CACHE_SESSIONS)) {
            if (new String(record.key(), StandardCharsets.UTF_8).equals(session)) {
                found = record.value() == null ? null
                        : EventCodec.decode(record.value(), SessionEntry.class, session);
            }
        }
        assertThat(found).as("session " + session + " on " + Topics.CACHE_SESSIONS).isNotNull();
        return found;
    }

    private static List<PrewarmCommand> prewarmsFor(KafkaTestClient kafka, String node) {
        return kafka.readAll(Topics.CACHE_PREWARM).stream()
                .filter(record -> new String(record.key(), StandardCharsets.UTF_8).equals(node))
                .map(record -> EventCodec.decode(record.value(), PrewarmCommand.class, node)).toList();
    }

    static byte[] storedBatch(List<Long> hashes) throws IOException {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packArrayHeader(2).packDouble(1.0).packArrayHeader(1).packArrayHeader(7).packString("BlockStored")
                .packArrayHeader(hashes.size());
        for (long hash : hashes) {
            packer.packBigInteger(new java.math.BigInteger(Long.toUnsignedString(hash)));
        }
        packer.packNil().packArrayHeader(0).packInt(16).packNil().packString("GPU");
        return packer.toByteArray();
    }

    static void zmqSend(ZMQ.Socket pub, String topic, long seq, byte[] payload) {
        pub.send(topic.getBytes(StandardCharsets.UTF_8), ZMQ.SNDMORE);
        pub.send(ByteBuffer.allocate(8).putLong(seq).array(), ZMQ.SNDMORE);
        pub.send(payload, 0);
    }

    private static HttpResponse<String> post(RunningService service, String path, String body) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        return http.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
