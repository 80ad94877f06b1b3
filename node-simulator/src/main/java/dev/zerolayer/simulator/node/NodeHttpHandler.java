package dev.zerolayer.simulator.node;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.routing.tokens.ServedModel;
import dev.zerolayer.simulator.faults.FaultBoard;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.latency.LatencyModel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.JsonNode;

/**
 * A node's HTTP surface: {@code POST /v1/messages} and {@code POST /v1/chat/completions} (streaming or not),
 * {@code GET /metrics}, {@code GET /health} and {@code GET /v1/models}. A request is read (at most the body limit, else
 * 413), parsed (else 400), may fail by an injected fault, waits out a warm-up and the concurrency limit, then answers
 * after the latency model's delays with deterministic text; errors use the API's own shape.
 */
final class NodeHttpHandler {

    private static final Logger log = LoggerFactory.getLogger(NodeHttpHandler.class);
    private static final long LARGE_BODY = 256 * 1024;
    /** Bodies above the limit are read and dropped up to this size (so the client gets its 413); beyond, cut off. */
    private static final long DRAIN_LIMIT = 64L * 1024 * 1024;
    private static final long CHAOS_SALT = 0x6A09E667F3BCC909L;
    private static final long CONGESTION_NANOS = 270_000_000L;
    private static final long SPIKE_MIN_NANOS = 300_000_000L;
    private static final long SPIKE_SPREAD_NANOS = 600_000_000L;
    private static final long PCIE_RETRY_NANOS = 200_000_000L;
    private static final long BANDWIDTH_JITTER_NANOS = 500_000_000L;
    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            .toCharArray();
    private static final String JSON = "application/json";
    private static final String SSE = "text/event-stream; charset=utf-8";
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    private final SimulatedNode node;
    private final PromptTokenizer tokenizer;
    private final RequestParser parser;
    private final MetricsPage metricsPage;
    private final AnthropicFormat anthropic = new AnthropicFormat();
    private final OpenAiFormat openAi = new OpenAiFormat();
    private final CompletionsFormat completions = new CompletionsFormat();
    private final CompletionPlanner planner;

    NodeHttpHandler(SimulatedNode node, PromptTokenizer tokenizer, RequestParser parser, MetricsPage metricsPage) {
        this.node = node;
        this.tokenizer = tokenizer;
        this.parser = parser;
        this.metricsPage = metricsPage;
        this.planner = new CompletionPlanner(node.settings().outputLength());
    }

    Publisher<Void> handle(HttpServerRequest request, HttpServerResponse response) {
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        HttpMethod method = request.method();
        switch (path) {
            case "/v1/messages":
                return method == HttpMethod.POST ? chat(UpstreamProtocol.ANTHROPIC, anthropic, request, response)
                        : error(response, anthropic, methodNotAllowed(anthropic), null);
            case "/v1/chat/completions":
                return method == HttpMethod.POST ? chat(UpstreamProtocol.OPENAI, openAi, request, response)
                        : error(response, openAi, methodNotAllowed(openAi), null);
            case "/v1/completions":
                return method == HttpMethod.POST ? chat(null, completions, request, response)
                        : error(response, completions, methodNotAllowed(completions), null);
            case "/metrics":
                return response.header(HttpHeaderNames.CONTENT_TYPE, PROMETHEUS)
                        .sendString(Mono.fromSupplier(() -> metricsPage.render(node))).then();
            case "/health":
                return response.status(200).send().then();
            case "/v1/models":
                return sendJson(response, 200, "{\"object\":\"list\",\"data\":[{\"id\":" + Json.quote(node.spec().model())
                        + ",\"object\":\"model\",\"created\":" + node.clock().instant().getEpochSecond()
                        + ",\"owned_by\":\"zerolayer-simulator\"}]}", null, null);
            default:
                ApiFormat format = advertised();
                ApiException notFound = format == anthropic
                        ? new ApiException(404, "not_found_error", "Not found", null, null)
                        : new ApiException(404, "invalid_request_error", "Unknown path", null, "unknown_url");
                return error(response, format, notFound, null);
        }
    }

    private ApiFormat advertised() {
        return node.spec().protocol() == UpstreamProtocol.ANTHROPIC ? anthropic : openAi;
    }

    private static ApiException methodNotAllowed(ApiFormat format) {
        return new ApiException(405, "invalid_request_error", "Method not allowed; use POST " + format.path(), null,
                "method_not_allowed");
    }

    // ---------------------------------------------------------------- chat requests

    private Mono<Void> chat(UpstreamProtocol protocol, ApiFormat format, HttpServerRequest request,
            HttpServerResponse response) {
        return body(request)
                .flatMap(bytes -> {
                    Mono<Void> work = Mono.defer(() -> serve(format, protocol == null ? parser.completions(bytes)
                            : parser.parse(protocol, bytes), bytes, response));
                    return bytes.length > LARGE_BODY ? work.subscribeOn(Schedulers.boundedElastic()) : work;
                })
                .onErrorResume(e -> failure(response, format, e));
    }

    private Mono<Void> failure(HttpServerResponse response, ApiFormat format, Throwable e) {
        if (response.hasSentHeaders()) {
            response.withConnection(Connection::dispose);
            return Mono.empty();
        }
        ApiException error;
        if (e instanceof ApiException api) {
            error = api;
        } else if (e instanceof BodyTooLarge) {
            long limitMb = node.settings().maxBodyBytes() / (1024 * 1024);
            error = format == anthropic
                    ? new ApiException(413, "request_too_large", "Request exceeds the maximum allowed size of "
                            + limitMb + " MB", null, null)
                    : new ApiException(413, "invalid_request_error", "Request exceeds the maximum allowed size of "
                            + limitMb + " MB", null, "request_too_large");
        } else if (e instanceof Admission.OverloadedException) {
            error = format.serverError(true);
        } else {
            // the exception's class only: a message could quote the request
            log.warn("node {}: request failed with {}", node.id(), e.getClass().getName());
            error = format.serverError(false);
        }
        return error(response, format, error, null);
    }

    private Mono<Void> error(HttpServerResponse response, ApiFormat format, ApiException error, String requestId) {
        return sendJson(response, error.status(), format.error(error), format, requestId);
    }

    private Mono<Void> serve(ApiFormat format, ChatRequest chat, byte[] body, HttpServerResponse response) {
        long arrived = System.nanoTime();
        FaultBoard faults = node.faults();
        SplittableRandom chaos = new SplittableRandom(mix(node.spec().seed() ^ CHAOS_SALT, node.nextRequestNumber()));
        String requestId = "req_" + base62(chaos, 24);
        if (faults.isActive(FaultType.ERRORS) && chaos.nextDouble() < faults.intensity(FaultType.ERRORS)) {
            node.failedRequest();
            return error(response, format, format.serverError(chaos.nextBoolean()), requestId);
        }
        PromptTokenizer.PromptTokens prompt = node.servedModel() == null
                ? tokenizer.tokens(chat.texts(), chat.messages(), chat.definitions())
                : enginePrompt(format, chat, body);
        long[] chain = node.hasher().hashChain(prompt.ids());
        // the same model answers the same prompt the same way on every node (greedy decoding of the same weights):
        // the draw depends on the model and the prompt without the answer's prefilled start, never on the node
        int[] asked = chat.prefill() == null ? prompt.ids() : tokenizer.tokens(chat.texts().subList(0,
                chat.texts().size() - 1), chat.messages() - 1, chat.definitions()).ids();
        SplittableRandom text = new SplittableRandom(mix(node.settings().hashSeed(), requestHash(asked, chat)));
        List<Completion.Choice> choices = planner.plan(chat, text, format.toolIdPrefix());
        String id = format == anthropic ? "msg_" + base62(chaos, 24) : format == completions
                ? "cmpl-" + base62(chaos, 29) : "chatcmpl-" + base62(chaos, 29);
        Pcie pcie = pcie(faults, chaos);
        node.warmIfCold();
        AtomicBoolean admitted = new AtomicBoolean();
        AtomicInteger waiting = node.waitingCounter();
        waiting.incrementAndGet();
        return node.warmGate().await()
                .then(node.admission().acquire())
                .flatMap(slot -> {
                    admitted.set(true);
                    waiting.decrementAndGet();
                    return respond(format, chat, prompt, chain, id, choices, pcie, chaos, arrived, requestId,
                            response).doFinally(signal -> slot.release());
                })
                .doFinally(signal -> {
                    if (admitted.compareAndSet(false, true)) {
                        waiting.decrementAndGet();
                    }
                });
    }

    /**
     * The prompt as the vLLM engine this node plays feeds it to the model: the chat body rendered through the model's
     * chat template and tokenized, or the completions prompt tokenized; its input tokens are those ids. A chat the
     * template cannot render falls back to the simulator's own counting (its blocks then match no router's chain).
     */
    private PromptTokenizer.PromptTokens enginePrompt(ApiFormat format, ChatRequest chat, byte[] body) {
        JsonNode root = EventCodec.mapper().readTree(body);
        ServedModel.Prompt prompt = format == completions ? node.servedModel().completion(root)
                : node.servedModel().chat(root);
        if (prompt.problem() != null) {
            return tokenizer.tokens(chat.texts(), chat.messages(), chat.definitions());
        }
        return new PromptTokenizer.PromptTokens(prompt.ids(), prompt.ids().length);
    }

    private Mono<Void> respond(ApiFormat format, ChatRequest chat, PromptTokenizer.PromptTokens prompt, long[] chain,
            String id, List<Completion.Choice> choices, Pcie pcie, SplittableRandom chaos, long arrived,
            String requestId, HttpServerResponse response) {
        FaultBoard faults = node.faults();
        LatencyModel latency = node.latency();
        int blockSize = node.settings().blockSize();
        int cachedTokens = Math.min(prompt.inputTokens(), node.kvCache().lookup(chain, prompt.ids().length) * blockSize);
        node.storePrompt(chain);
        int uncached = prompt.inputTokens() - cachedTokens;
        node.prefilled(uncached);
        Completion completion = new Completion(id, chat.model(), node.clock().instant().getEpochSecond(),
                prompt.inputTokens(), cachedTokens, choices);
        int tokens = completion.outputTokens();
        boolean capped = completion.first().stop() == Completion.Stop.MAX_TOKENS;
        long ttft = (long) (latency.prefillNanos(uncached) * slowdown(faults)) + pcie.delayNanos()
                + (faults.isActive(FaultType.GATEWAY_CONGESTION)
                        ? (long) (CONGESTION_NANOS * faults.intensity(FaultType.GATEWAY_CONGESTION)) : 0)
                + spike(faults, chaos);
        if (pcie.fails()) {
            node.failedRequest();
            return delay(ttft).then(Mono.defer(() -> error(response, format, format.serverError(false), requestId)));
        }
        if (!chat.stream()) {
            long total = ttft;
            for (int i = 1; i < tokens; i++) {
                total += interToken(faults, chaos);
            }
            node.recordTtft(System.nanoTime() - arrived + ttft);
            Mono<Void> send = Mono.defer(() -> {
                node.generatedTokens(tokens);
                node.finished(capped);
                return sendJson(response, 200, format.message(completion), format, requestId);
            });
            return total > 0 ? delay(total).then(send) : send;
        }
        List<String> groups = groups(format.frames(completion, chat.includeUsage()));
        boolean cut = faults.isActive(FaultType.STREAM_CUT)
                && chaos.nextDouble() < faults.intensity(FaultType.STREAM_CUT);
        boolean stall = !cut && faults.isActive(FaultType.STREAM_STALL)
                && chaos.nextDouble() < faults.intensity(FaultType.STREAM_STALL);
        if (cut || stall) {
            // at least one token reaches the client, never all of them: the cut is mid-way
            int keep = groups.size() >= 3 ? 1 + chaos.nextInt(groups.size() - 2) : 1;
            groups = groups.subList(0, keep);
        }
        Flux<String> frames = frames(groups, completion, cut || stall, chaos, arrived);
        // nothing, not even the status line, leaves before the first token: time to first byte is time to first token
        Flux<String> stream = frames;
        Mono<Void> sent = Mono.defer(() -> response.status(200)
                .header(HttpHeaderNames.CONTENT_TYPE, SSE)
                .header(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                .header(idHeader(format), requestId)
                .send(stream.map(NodeHttpHandler::utf8), buffer -> true)
                .then());
        // a cut closes the connection once the frames kept have been written: the client sees them, then the
        // connection dying without the stream's end
        Mono<Void> send = !cut ? sent : sent.then(Mono.fromRunnable(() -> {
            node.failedRequest();
            // closed behind the frames still queued for the socket, never in front of them
            response.withConnection(connection -> connection.channel().writeAndFlush(Unpooled.EMPTY_BUFFER)
                    .addListener(ChannelFutureListener.CLOSE));
        }));
        if (stall) {
            // the frames kept are written, then nothing more: the stream never ends until the client gives up
            send = sent.then(Mono.<Void>never()).doOnCancel(node::failedRequest);
        }
        return ttft > 0 ? delay(ttft).then(send) : send;
    }

    /**
     * The stream's writes: everything up to the first token frame goes at the first token; then each token frame with
     * the frames before it, one token time apart; the frames after the last token right after it.
     */
    static List<String> groups(List<ApiFormat.Frame> frames) {
        List<String> groups = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (ApiFormat.Frame frame : frames) {
            current.append(frame.text());
            if (frame.token()) {
                groups.add(current.toString());
                current.setLength(0);
            }
        }
        if (groups.isEmpty() || !current.isEmpty()) {
            groups.add(current.toString());
        }
        return groups;
    }

    /** The groups as timed writes: the first at once (it is delayed by the time to first token), then one token apart. */
    private Flux<String> frames(List<String> groups, Completion completion, boolean cut, SplittableRandom chaos,
            long arrived) {
        FaultBoard faults = node.faults();
        int tokens = completion.outputTokens();
        boolean capped = completion.first().stop() == Completion.Stop.MAX_TOKENS;
        int last = groups.size() - 1;
        return Flux.range(0, groups.size()).concatMap(index -> {
            Mono<String> frame = Mono.fromSupplier(() -> {
                if (index == 0) {
                    node.recordTtft(System.nanoTime() - arrived);
                }
                if (index < tokens) {
                    node.generatedTokens(1);
                }
                if (index == last && !cut) {
                    node.finished(capped);
                }
                return groups.get(index);
            });
            // the group after the last token carries the stream's end, sent with that token
            boolean timed = index > 0 && index < tokens;
            long wait = timed ? interToken(faults, chaos) : 0;
            return wait > 0 ? delay(wait).then(frame) : frame;
        }).filter(text -> !text.isEmpty());
    }

    /** Time to the next token: decode at the current batch, slowed by SM saturation, plus bandwidth jitter. */
    private long interToken(FaultBoard faults, SplittableRandom chaos) {
        long base = (long) (node.latency().interTokenNanos(node.batch()) * slowdown(faults));
        if (faults.isActive(FaultType.GPU_BANDWIDTH)) {
            base += (long) (chaos.nextDouble() * BANDWIDTH_JITTER_NANOS * faults.intensity(FaultType.GPU_BANDWIDTH));
        }
        return base;
    }

    private static double slowdown(FaultBoard faults) {
        return faults.isActive(FaultType.SM_SATURATION) ? 1.5 + 1.5 * faults.intensity(FaultType.SM_SATURATION) : 1.0;
    }

    /** A late first token: for a share (the intensity) of requests, 300–900 ms more (drawn only while active). */
    private static long spike(FaultBoard faults, SplittableRandom chaos) {
        if (!faults.isActive(FaultType.TTFT_SPIKES) || chaos.nextDouble() >= faults.intensity(FaultType.TTFT_SPIKES)) {
            return 0;
        }
        return SPIKE_MIN_NANOS + chaos.nextLong(SPIKE_SPREAD_NANOS);
    }

    /** PCIe errors: some requests pay one to three 200 ms retries of a failed tensor copy, a few fail after three. */
    private record Pcie(long delayNanos, boolean fails) {
    }

    private static Pcie pcie(FaultBoard faults, SplittableRandom chaos) {
        if (!faults.isActive(FaultType.PCIE_ERRORS)) {
            return new Pcie(0, false);
        }
        double intensity = faults.intensity(FaultType.PCIE_ERRORS);
        double draw = chaos.nextDouble();
        if (draw < 0.05 * intensity) {
            return new Pcie(3 * PCIE_RETRY_NANOS, true);
        }
        if (draw < 0.35 * intensity) {
            return new Pcie((1 + chaos.nextInt(3)) * PCIE_RETRY_NANOS, false);
        }
        return new Pcie(0, false);
    }

    private Mono<Long> delay(long nanos) {
        return Mono.delay(Duration.ofNanos(nanos), node.timers());
    }

    // ---------------------------------------------------------------- bodies and responses

    private Mono<byte[]> body(HttpServerRequest request) {
        long limit = node.settings().maxBodyBytes();
        long declared = contentLength(request);
        if (declared > DRAIN_LIMIT) {
            return Mono.error(new BodyTooLarge());
        }
        return request.receive()
                .reduceWith(() -> new BodyBuffer(limit, declared), BodyBuffer::append)
                .flatMap(buffer -> buffer.overflowed() ? Mono.error(new BodyTooLarge()) : Mono.just(buffer.bytes()));
    }

    private static long contentLength(HttpServerRequest request) {
        String value = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Mono<Void> sendJson(HttpServerResponse response, int status, String body, ApiFormat format,
            String requestId) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpServerResponse headers = response.status(status)
                .header(HttpHeaderNames.CONTENT_TYPE, JSON)
                .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length));
        if (requestId != null && format != null) {
            headers = headers.header(idHeader(format), requestId);
        }
        return headers.sendByteArray(Mono.just(bytes)).then();
    }

    private String idHeader(ApiFormat format) {
        return format == anthropic ? "request-id" : "x-request-id";
    }

    private static ByteBuf utf8(String frame) {
        return Unpooled.wrappedBuffer(frame.getBytes(StandardCharsets.UTF_8));
    }

    private static String base62(SplittableRandom random, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = BASE62[random.nextInt(BASE62.length)];
        }
        return new String(out);
    }

    /** The request's identity for text generation: its prompt tokens, token limit and model. */
    private static long requestHash(int[] ids, ChatRequest chat) {
        long hash = 0x9E3779B97F4A7C15L;
        for (int id : ids) {
            hash = (hash ^ (id & 0xffffffffL)) * 0x100000001B3L;
            hash ^= hash >>> 29;
        }
        return fmix64(hash ^ chat.model().hashCode() * 0xC2B2AE3D27D4EB4FL);
    }

    static long mix(long a, long b) {
        return fmix64(a ^ fmix64(b + 0x9E3779B97F4A7C15L));
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** The request body was larger than the limit. */
    static final class BodyTooLarge extends RuntimeException {
        BodyTooLarge() {
            super("request body too large", null, false, false);
        }
    }

    /** Collects a body up to the limit; past it, counts and drops bytes (up to the drain limit). */
    static final class BodyBuffer {
        private final long limit;
        private byte[] bytes;
        private int size;
        private long seen;

        BodyBuffer(long limit, long declared) {
            this.limit = limit;
            this.bytes = new byte[(int) Math.max(256, Math.min(limit, declared < 0 ? 8192 : declared))];
        }

        BodyBuffer append(ByteBuf chunk) {
            int readable = chunk.readableBytes();
            seen += readable;
            if (seen > DRAIN_LIMIT) {
                throw new BodyTooLarge();
            }
            if (seen > limit) {
                return this;
            }
            if (size + readable > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(bytes.length * 2L,
                        (long) size + readable)));
            }
            chunk.getBytes(chunk.readerIndex(), bytes, size, readable);
            size += readable;
            return this;
        }

        boolean overflowed() {
            return seen > limit;
        }

        byte[] bytes() {
            return size == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, size);
        }
    }
}
