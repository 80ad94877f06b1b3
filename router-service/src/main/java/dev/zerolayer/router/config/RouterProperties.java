package dev.zerolayer.router.config;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's own limits ({@code zerolayer.router.*}); routing numbers live in the fallback policy instead.
 *
 * @param maxRequestBody       largest accepted client body (413 above)
 * @param maxUpstreamResponse  largest upstream response body read (the attempt fails above)
 * @param eventBufferSize      decision events held while the broker is slow or down (dropped and counted above)
 * @param requestsPerSecond    per-API-key rate limit (429 above)
 * @param connectTimeoutMs     upstream TCP connect timeout
 * @param prefixBlockSize      tokens per KV block when hashing prompts for prefix-aware routing (as the nodes do)
 * @param prefixHashSeed       seed of the block hash chain (as the nodes and cache-service use)
 * @param prefixMaxBlocks      leading blocks of a prompt hashed and looked up (bounds the work on huge prompts)
 * @param exactPrefixes        compute the exact prefix blocks of nodes that declare their engine's prefix caching with
 *                             their model's tokenizer and chat template (false: such nodes are matched approximately,
 *                             sparing the router the rendering and tokenizing)
 * @param approximateTtl       how long a node whose engine's prefix blocks cannot be computed for a prompt is assumed
 *                             to hold the router's blocks of a prompt it served (approximate prefix matching)
 * @param approximateBlocks    blocks assumed per such node at most (the least recently sent go first)
 * @param cacheAware           score nodes by the prompt blocks they hold and by session stickiness (false: neither;
 *                             for measuring what cache-aware routing is worth)
 * @param apiKeysFile          a file of client keys, one per line ({@code sha256:<64 hex>} or the key; {@code #}
 *                             comments), added to {@code zerolayer.api-keys} and re-read when it changes (empty: none)
 * @param apiKeysFilePoll      how often the keys file is checked for a change
 * @param responseItems        Responses output items kept for later item references (the most recent ones)
 * @param responseItemsTtl     how long a Responses output item is kept, and a stored response after its last use
 * @param responsesKept        about how much memory stored Responses answers (for {@code previous_response_id}) take
 *                             at most (the least recently used go first)
 * @param upstreamCredentials  credentials nodes name in their registration ({@code credentialRef}), each a header line
 *                             ({@code authorization: Bearer …}); never sent to a node that does not name it
 * @param warmUp               synthetic requests through the router's own HTTP path before it reports ready
 */
@Validated
@ConfigurationProperties("zerolayer.router")
public record RouterProperties(
        @DefaultValue("32MB") DataSize maxRequestBody,
        @DefaultValue("32MB") DataSize maxUpstreamResponse,
        @DefaultValue("100000") @Min(1) int eventBufferSize,
        @DefaultValue("1000") @Positive int requestsPerSecond,
        @DefaultValue("2000") @Positive int connectTimeoutMs,
        @DefaultValue("16") @Positive int prefixBlockSize,
        @DefaultValue("0") long prefixHashSeed,
        @DefaultValue("1024") @Positive int prefixMaxBlocks,
        @DefaultValue("true") boolean exactPrefixes,
        @DefaultValue("10m") Duration approximateTtl,
        @DefaultValue("200000") @Positive int approximateBlocks,
        @DefaultValue("true") boolean cacheAware,
        @DefaultValue("") String apiKeysFile,
        @DefaultValue("1s") Duration apiKeysFilePoll,
        @DefaultValue("10000") @Min(0) int responseItems,
        @DefaultValue("1h") Duration responseItemsTtl,
        @DefaultValue("64MB") DataSize responsesKept,
        Map<String, String> upstreamCredentials,
        @DefaultValue @jakarta.validation.Valid WarmUp warmUp) {

    public RouterProperties {
        upstreamCredentials = upstreamCredentials == null ? Map.of() : Map.copyOf(upstreamCredentials);
    }

    /**
     * The warm-up ({@code zerolayer.router.warm-up.*}): before readiness, {@code requests} synthetic requests of every
     * client API go through the router's own port to a loopback stand-in node, {@code concurrency} at a time, so the
     * JIT has compiled the request path before the first client request; it ends after {@code maxDuration} whatever
     * it has done (readiness is never held longer).
     *
     * @param enabled     false: ready as soon as the views are loaded (a cold JIT serves the first requests)
     * @param requests    synthetic requests sent
     * @param concurrency synthetic requests in flight at a time
     * @param maxDuration the longest the warm-up holds readiness back
     */
    public record WarmUp(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("50000") @Min(0) int requests,
            @DefaultValue("16") @Positive int concurrency,
            @DefaultValue("60s") Duration maxDuration) {
    }
}
