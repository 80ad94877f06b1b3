package dev.zerolayer.router.decision;

import dev.zerolayer.contracts.cache.KvIndexEntry;
import dev.zerolayer.contracts.telemetry.NodeRegistration;
import dev.zerolayer.contracts.telemetry.PrefixCaching;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.routing.prefix.BlockHasher;
import dev.zerolayer.routing.prefix.FastBlockHasher;
import dev.zerolayer.routing.prefix.PrefixOverlap;
import dev.zerolayer.routing.prefix.SentPrefixes;
import dev.zerolayer.routing.prefix.VllmBlockHasher;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.routing.tokens.ServedModels;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A prompt's leading KV blocks (at most {@code maxBlocks}) hashed as each node's engine hashes them, and, from the
 * {@code cache.kv-index.v1} view, how many of them each node holds without a gap: nodes that declare no prefix caching
 * get the router's default chain (the default token ids and hash); a node that declares one gets the chain of its
 * scheme (its model's tokenizer and chat template, its block size, hash, seed, and the LoRA adapter the request names)
 * and is credited only with blocks of that chain. Where a node's prompt cannot be computed exactly (its tokenizer is
 * still loading or failed, its template cannot be rendered, an unreproducible hash) it falls back to approximate
 * matching: it is credited with the leading blocks of the default chain this router recently sent it
 * ({@link SentPrefixes}), never with a block of its engine's index, and the lookup says why.
 */
public final class PromptPrefixes {

    /** A request's prompt for a served model, as the engine would receive it. */
    @FunctionalInterface
    public interface PromptSource {
        ServedModel.Prompt prompt(ServedModel model);
    }

    /** One way of cutting and hashing prompts, with the adapter whose name vLLM mixes into every block. */
    private record Scheme(PrefixCaching caching, String adapter) {
    }

    private final CompactedView<KvIndexEntry> index;
    private final BlockHasher defaultHasher;
    private final int maxBlocks;
    private final boolean cacheAware;
    private final ServedModels<ServedModel> models;
    private final SentPrefixes sent;
    private final Map<Scheme, BlockHasher> hashers = new ConcurrentHashMap<>();

    public PromptPrefixes(CompactedView<KvIndexEntry> index, BlockHasher hasher, int maxBlocks) {
        this(index, hasher, maxBlocks, true, null, null);
    }

    /**
     * With {@code cacheAware} false the chain is still hashed (for decision events) but no node is credited; without
     * served models (null) a node that names a tokenizer gets no exact prefix credit; without a history of what was
     * sent where (null) a node whose chain cannot be computed exactly gets no credit at all.
     */
    public PromptPrefixes(CompactedView<KvIndexEntry> index, BlockHasher hasher, int maxBlocks, boolean cacheAware,
            ServedModels<ServedModel> models, SentPrefixes sent) {
        this.index = index;
        this.defaultHasher = hasher;
        this.maxBlocks = maxBlocks;
        this.cacheAware = cacheAware;
        this.models = models;
        this.sent = sent;
    }

    /** Whether prefix overlap and session stickiness count in node scores. */
    public boolean cacheAware() {
        return cacheAware;
    }

    /** The default chain alone, for a fleet in which no node declares prefix caching. */
    public Lookup lookup(int[] tokenIds) {
        long[] chain = chain(defaultHasher, tokenIds);
        if (!cacheAware || chain.length == 0 || index.size() == 0) {
            return Lookup.of(chain);
        }
        return new Lookup(chain, PrefixOverlap.leadingBlocks(chain, this::holders), Map.of(), Map.of(), Map.of());
    }

    /**
     * The chains of every scheme the fleet's nodes declare, and each node's leading blocks held of its own chain.
     *
     * @param defaultIds     the prompt's token ids in the router's default counting
     * @param nodes          the fleet's registrations
     * @param requestedModel the model the request names (a LoRA adapter when a node holds one of that name)
     * @param source         the prompt as each served model's engine receives it
     */
    public Lookup lookup(int[] defaultIds, Iterable<NodeRegistration> nodes, String requestedModel,
            PromptSource source) {
        Map<Scheme, Set<String>> declared = null;
        for (NodeRegistration node : nodes) {
            PrefixCaching caching = node.prefixCache();
            if (caching != null) {
                String adapter = requestedModel != null && node.adapters().contains(requestedModel)
                        ? requestedModel : null;
                if (declared == null) {
                    declared = new HashMap<>(4);
                }
                declared.computeIfAbsent(new Scheme(caching, adapter), s -> new HashSet<>()).add(node.nodeId());
            }
        }
        Lookup plain = lookup(defaultIds);
        if (declared == null) {
            return plain;
        }
        Map<String, Integer> held = new HashMap<>(plain.leadingBlocksHeld());
        Map<String, long[]> chains = new HashMap<>();
        Map<String, String> inexact = new HashMap<>();
        Map<String, Integer> engineTokens = new HashMap<>();
        Map<ServedModel, ServedModel.Prompt> prompts = new HashMap<>(2);
        for (Map.Entry<Scheme, Set<String>> group : declared.entrySet()) {
            Scheme scheme = group.getKey();
            Set<String> members = group.getValue();
            members.forEach(held::remove);
            String problem = null;
            int[] ids = defaultIds;
            if (!scheme.caching().reproducible()) {
                problem = "vLLM hashes without a fixed PYTHONHASHSEED cannot be reproduced";
            } else if (scheme.caching().tokenizer() != null) {
                ServedModel model = models == null ? null : models.ready(scheme.caching().tokenizer()).orElse(null);
                if (model == null) {
                    problem = models == null ? "exact prefix matching is off in this router"
                            : describe(models.state(scheme.caching().tokenizer()));
                } else {
                    ServedModel.Prompt prompt = prompts.computeIfAbsent(model, source::prompt);
                    problem = prompt.problem();
                    ids = prompt.ids();
                    if (problem == null) {
                        for (String node : members) {
                            engineTokens.put(node, ids.length);
                        }
                    }
                }
            }
            if (problem != null) {
                // approximate: the default chain, credited with what this router sent the node lately
                for (String node : members) {
                    inexact.put(node, problem);
                    int approximate = cacheAware && sent != null ? sent.leadingBlocks(node, plain.chain()) : 0;
                    if (approximate > 0) {
                        held.put(node, approximate);
                    }
                }
                continue;
            }
            long[] chain = chain(hashers.computeIfAbsent(scheme, PromptPrefixes::hasher), ids);
            for (String node : members) {
                chains.put(node, chain);
            }
            if (cacheAware && chain.length > 0 && index.size() > 0) {
                PrefixOverlap.leadingBlocks(chain, hash -> holders(hash, members)).forEach(held::put);
            }
        }
        return new Lookup(plain.chain(), held, chains, inexact, engineTokens);
    }

    /**
     * Remembers that {@code node} served the prompt of {@code lookup}, for approximate matching when the node's own
     * chain could not be computed for it.
     */
    public void served(String node, Lookup lookup) {
        if (sent != null && node != null && lookup.inexact().containsKey(node)) {
            sent.served(node, lookup.chain());
        }
    }

    private static String describe(ServedModels.State state) {
        return state instanceof ServedModels.Failed failed ? "tokenizer failed to load: " + failed.reason()
                : "tokenizer still loading";
    }

    private static BlockHasher hasher(Scheme scheme) {
        PrefixCaching caching = scheme.caching();
        if (PrefixCaching.VLLM_SHA256_CBOR.equals(caching.hashAlgorithm())) {
            return new VllmBlockHasher(caching.blockSize(), caching.hashSeed(),
                    scheme.adapter() == null ? null : List.of(scheme.adapter()));
        }
        return new FastBlockHasher(caching.blockSize(), caching.hashSeed() == null ? 0 : Long.parseLong(
                caching.hashSeed()));
    }

    private long[] chain(BlockHasher hasher, int[] tokenIds) {
        int limit = (int) Math.min(tokenIds.length, (long) maxBlocks * hasher.blockSize());
        int[] head = limit == tokenIds.length ? tokenIds : Arrays.copyOf(tokenIds, limit);
        return hasher.hashChain(head);
    }

    private List<String> holders(long blockHash) {
        return index.get(Long.toUnsignedString(blockHash)).map(KvIndexEntry::nodes).orElse(null);
    }

    private List<String> holders(long blockHash, Set<String> members) {
        List<String> all = holders(blockHash);
        return all == null ? null : all.stream().filter(members::contains).toList();
    }

    /**
     * The prompt's default block chain, the leading blocks each node holds of its own chain (absent: none), the chain
     * of each node that declares its own scheme (absent: the default chain), why a declaring node's chain could not be
     * computed (absent: it could; present: it was matched approximately, on the default chain), and the prompt's
     * tokens as each node that names its model's tokenizer feeds them to the model (absent: not known exactly).
     */
    public record Lookup(long[] chain, Map<String, Integer> leadingBlocksHeld, Map<String, long[]> chainsByNode,
            Map<String, String> inexact, Map<String, Integer> engineTokens) {

        /** A prompt with only the default chain and no node credited. */
        public static Lookup of(long[] chain) {
            return new Lookup(chain, Map.of(), Map.of(), Map.of(), Map.of());
        }

        /** The chain of the blocks as {@code node} hashes them. */
        public long[] chainOf(String node) {
            return chainsByNode.getOrDefault(node, chain);
        }
    }
}
