package dev.zerolayer.router.warmup;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.contracts.telemetry.NodeHealth;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the warm-up sends and to whom: the router's own fleet served by the stand-in node, with one healthy stand-in node
 * per protocol in every cluster of the policy's tiers beside it, and calls covering every client API, whole and streamed, per tier alias and without one, with short, long,
 * multi-turn and tool-bearing synthetic prompts, the Messages and Chat Completions APIs weighted as the most used.
 */
final class WarmUpTraffic {

    /** One synthetic request: path under the client API, headers and JSON body. */
    record Call(String path, Map<String, String> headers, byte[] body) {
    }

    private static final int CAPACITY = 10_000;
    /** W3C trace context, not sampled: the tracer's code runs, nothing is exported. */
    private static final String UNSAMPLED = "00-" + "7a65726f6c61796572" + "0".repeat(14) + "-7761726d75700000-00";
    private static final String SHORT = "Reply with a short greeting.";
    private static final String LONG = "Summarise the numbered warm-up paragraph in one sentence. ".repeat(40);
    private static final String SYSTEM = "You are the router's warm-up; answer briefly.";

    private WarmUpTraffic() {
    }

    /** A healthy, idle stand-in node per protocol in every cluster the policy's tiers name, all at {@code baseUrl}. */
    static List<NodeHealth> standInFleet(PolicyDocument policy, String baseUrl) {
        List<NodeHealth> fleet = new ArrayList<>();
        for (TierSpec tier : policy.tiers()) {
            for (String cluster : tier.clusters()) {
                for (UpstreamProtocol protocol : UpstreamProtocol.values()) {
                    String id = "warm-up-" + cluster + "-" + protocol.wireName();
                    NodeRegistration registration = NodeRegistration.of(id, tier.name(), cluster, null, baseUrl,
                            protocol, "stand-in", CAPACITY, "stand-in");
                    fleet.add(new NodeHealth(EventChecks.newEventId(), Instant.now(), NodeHealth.SCHEMA_VERSION, id,
                            registration, NodeState.HEALTHY, 1.0, List.of(), null, 0, 0, 0, null, List.of(), 0,
                            false, 0));
                }
            }
        }
        return fleet;
    }

    /**
     * The router's fleet as it is now, each node served at {@code baseUrl} instead and needing no credential, its
     * record fresh (so the warm-up decides over the real nodes' states, tiers and loads), plus the policy's stand-in
     * fleet (so every API and tier has a node that serves it).
     */
    static List<NodeHealth> mirror(Collection<NodeHealth> fleet, PolicyDocument policy, String baseUrl) {
        List<NodeHealth> mirrored = new ArrayList<>(standInFleet(policy, baseUrl));
        for (NodeHealth h : fleet) {
            mirrored.add(new NodeHealth(EventChecks.newEventId(), Instant.now(), h.schemaVersion(), h.nodeId(),
                    h.registration().servedAt(baseUrl), h.state(), h.score(), h.reasons(), h.diagnosis(), h.load(),
                    h.queueDepth(), h.kvCacheUsage(), h.predictedReadyAt(), h.warmupDurationsMs(),
                    h.lastSampleAgeMs(), h.clusterLoadSpike(), h.policyVersion()));
        }
        return mirrored;
    }

    /** Every call the warm-up cycles through, authenticated with {@code apiKey}. */
    static List<Call> calls(PolicyDocument policy, String apiKey) {
        List<String> aliases = new ArrayList<>();
        List<String> tiers = new ArrayList<>();
        for (TierSpec tier : policy.tiers()) {
            if (!tier.modelAliases().isEmpty()) {
                aliases.add(tier.modelAliases().get(0));
                tiers.add(tier.name());
            }
        }
        List<Call> calls = new ArrayList<>();
        for (int t = 0; t < aliases.size(); t++) {
            String model = aliases.get(t);
            for (boolean stream : List.of(false, true)) {
                for (String prompt : List.of(SHORT, LONG)) {
                    // the Messages and Chat Completions APIs carry most traffic: three and two times the others'
                    for (int weight = 0; weight < 3; weight++) {
                        calls.add(anthropic("/v1/messages", apiKey, tiers.get(t),
                                messages(model, stream, prompt, false)));
                        calls.add(anthropic("/v1/messages", apiKey, null, messages(model, stream, prompt, true)));
                    }
                    for (int weight = 0; weight < 2; weight++) {
                        calls.add(openAi("/v1/chat/completions", apiKey, chat(model, stream, prompt)));
                    }
                    calls.add(openAi("/v1/responses", apiKey, String.format(Locale.ROOT,
                            "{\"model\":%s,\"stream\":%s,\"max_output_tokens\":64,\"instructions\":%s,\"input\":%s}",
                            quote(model), stream, quote(SYSTEM), quote(prompt))));
                    calls.add(openAi("/v1/completions", apiKey, String.format(Locale.ROOT,
                            "{\"model\":%s,\"stream\":%s,\"max_tokens\":64,\"prompt\":%s}", quote(model), stream,
                            quote(prompt))));
                }
            }
            calls.add(anthropic("/v1/messages/count_tokens", apiKey, null, String.format(Locale.ROOT,
                    "{\"model\":%s,\"messages\":[{\"role\":\"user\",\"content\":%s}]}", quote(model), quote(LONG))));
            calls.add(anthropic("/v1/route/explain", apiKey, tiers.get(t), messages(model, false, SHORT, false)));
        }
        return List.copyOf(calls);
    }

    /** A Messages body; {@code turns}: a multi-turn conversation with content blocks and a tool. */
    private static String messages(String model, boolean stream, String prompt, boolean turns) {
        if (!turns) {
            return String.format(Locale.ROOT, "{\"model\":%s,\"max_tokens\":64,\"stream\":%s,\"system\":%s,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":%s}]}", quote(model), stream, quote(SYSTEM),
                    quote(prompt));
        }
        return String.format(Locale.ROOT, "{\"model\":%s,\"max_tokens\":64,\"stream\":%s,\"system\":[{\"type\":"
                + "\"text\",\"text\":%s}],\"tools\":[{\"name\":\"clock\",\"description\":\"The time now.\","
                + "\"input_schema\":{\"type\":\"object\",\"properties\":{\"zone\":{\"type\":\"string\"}}}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":%s}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Noted.\"}]},"
                + "{\"role\":\"user\",\"content\":%s}]}", quote(model), stream, quote(SYSTEM), quote(prompt),
                quote(SHORT));
    }

    private static String chat(String model, boolean stream, String prompt) {
        return String.format(Locale.ROOT, "{\"model\":%s,\"stream\":%s,\"max_tokens\":64,\"messages\":[{\"role\":"
                + "\"system\",\"content\":%s},{\"role\":\"user\",\"content\":%s}],\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"clock\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}}]}",
                quote(model), stream, quote(SYSTEM), quote(prompt));
    }

    private static Call anthropic(String path, String apiKey, String priority, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("traceparent", UNSAMPLED);
        headers.put("content-type", "application/json");
        headers.put("x-api-key", apiKey);
        headers.put("anthropic-version", "2023-06-01");
        if (priority != null) {
            headers.put(ZeroLayerHeaders.ROUTING_PRIORITY, priority);
        }
        return new Call(path, Map.copyOf(headers), body.getBytes(StandardCharsets.UTF_8));
    }

    private static Call openAi(String path, String apiKey, String body) {
        return new Call(path, Map.of("content-type", "application/json", "authorization", "Bearer " + apiKey,
                "traceparent", UNSAMPLED),
                body.getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON string literal of synthetic text (letters, digits, spaces and punctuation only). */
    private static String quote(String text) {
        return '"' + text + '"';
    }
}
