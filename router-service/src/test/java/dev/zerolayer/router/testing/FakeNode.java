package dev.zerolayer.router.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP inference node on 127.0.0.1 for tests, answering like an Anthropic or OpenAI server (JSON or SSE), or
 * failing on purpose: HTTP 500/529, hanging without an answer, cutting a stream after two events, redirecting, sending
 * an oversized body, or streaming slowly until it is crashed (connections dropped) or frozen (silent, connections
 * open). Records what it received (body and headers).
 */
public final class FakeNode implements AutoCloseable {

    /** How the node behaves. */
    public enum Mode { OK, FAIL_500, FAIL_529, HANG, CUT_STREAM, REDIRECT, OVERSIZE, SLOW_STREAM, REJECT_400, TOOL_CALL }

    /** One request as the node received it: path, query string (null when none), body and headers. */
    public record Received(String path, String query, String body, Map<String, List<String>> headers) {

        /** Every value of a header, matched without regard to case. */
        public List<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).toList();
        }
    }

    private final HttpServer server;
    private final Mode mode;
    private final boolean openAi;
    private final String reply;
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch frozen = new CountDownLatch(1);
    private final AtomicInteger streaming = new AtomicInteger();
    private volatile boolean isFrozen;
    private volatile int redirectStatus = 302;
    private volatile String redirectLocation = "http://127.0.0.1:9/";
    private volatile int oversizeBytes = 1 << 20;
    private volatile boolean declareLength;
    private volatile Duration pace = Duration.ofMillis(100);
    private volatile int slowDeltas = 100;

    public FakeNode(Mode mode, boolean openAi, String reply) throws IOException {
        this.mode = mode;
        this.openAi = openAi;
        this.reply = reply;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** {@link Mode#REDIRECT}: the status (3xx) and {@code Location} to answer with. */
    public FakeNode redirectTo(int status, String location) {
        this.redirectStatus = status;
        this.redirectLocation = location;
        return this;
    }

    /** {@link Mode#OVERSIZE}: the size of the answer's text, and whether a Content-Length announces it. */
    public FakeNode oversize(int bytes, boolean declared) {
        this.oversizeBytes = bytes;
        this.declareLength = declared;
        return this;
    }

    /** {@link Mode#SLOW_STREAM}: one text delta every {@code every}, {@code deltas} of them, then the stream's end. */
    public FakeNode slowStream(Duration every, int deltas) {
        this.pace = every;
        this.slowDeltas = deltas;
        return this;
    }

    /** Streams in progress that have sent their first event. */
    public int streamsInProgress() {
        return streaming.get();
    }

    /** Crashes the node: the listening socket and every open connection are closed now. */
    public void crash() {
        // streams in progress are not told: their next write fails on the closed connection
        server.stop(0);
    }

    /**
     * Freezes the node like a host that died without closing its connections: nothing more is written on open
     * connections and new requests get no answer, until {@link #close()}.
     */
    public void freeze() {
        isFrozen = true;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery(), body,
                Map.copyOf(exchange.getRequestHeaders())));
        boolean stream = body.contains("\"stream\":true");
        try (exchange) {
            if (isFrozen) {
                awaitQuietly(frozen);
                return;
            }
            switch (mode) {
                case FAIL_500 -> send(exchange, 500, "application/json", "{\"error\":\"boom\"}");
                case FAIL_529 -> send(exchange, 529, "application/json",
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}");
                case HANG -> awaitQuietly(release);
                case REJECT_400 -> send(exchange, 400, "application/json", openAi
                        ? "{\"error\":{\"message\":\"" + reply + "\",\"type\":\"invalid_request_error\",\"param\":\"n\","
                                + "\"code\":null}}"
                        : "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + reply
                                + "\"}}");
                case TOOL_CALL -> {
                    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                    exchange.sendResponseHeaders(200, 0);
                    OutputStream out = exchange.getResponseBody();
                    for (String event : openAi ? openAiToolEvents() : anthropicToolEvents()) {
                        out.write(event.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
                case REDIRECT -> {
                    exchange.getResponseHeaders().set("Location", redirectLocation);
                    send(exchange, redirectStatus, "application/json", "{\"moved\":true}");
                }
                case OVERSIZE -> oversized(exchange, stream);
                case SLOW_STREAM -> {
                    if (!stream) {
                        send(exchange, 200, "application/json", openAi ? openAiJson() : anthropicJson());
                    } else {
                        slow(exchange, maxTokens(body));
                    }
                }
                case OK, CUT_STREAM -> {
                    if (!stream) {
                        send(exchange, 200, "application/json", openAi ? openAiJson() : anthropicJson());
                    } else {
                        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                        exchange.sendResponseHeaders(200, 0);
                        OutputStream out = exchange.getResponseBody();
                        List<String> events = openAi ? openAiEvents() : anthropicEvents();
                        int count = mode == Mode.CUT_STREAM ? 2 : events.size();
                        for (int i = 0; i < count; i++) {
                            out.write(events.get(i).getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    /** The request's {@code max_tokens} (or {@code max_completion_tokens}), unlimited when it sets none. */
    private static int maxTokens(String body) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("\"max_(?:completion_)?tokens\":(\\d+)")
                .matcher(body);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : Integer.MAX_VALUE;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void oversized(HttpExchange exchange, boolean stream) throws IOException {
        String text = "x".repeat(oversizeBytes);
        if (!stream) {
            String json = anthropicJson().replace("\"text\":\"" + reply + "\"", "\"text\":\"" + text + "\"");
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, declareLength ? bytes.length : 0);
            OutputStream out = exchange.getResponseBody();
            for (int at = 0; at < bytes.length; at += 8192) {
                out.write(bytes, at, Math.min(8192, bytes.length - at));
                out.flush();
            }
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        List<String> events = anthropicEvents();
        out.write((events.get(0) + events.get(1)).getBytes(StandardCharsets.UTF_8));
        out.flush();
        // the answer's text is oversizeBytes long, as the whole answer's is (the stream's framing adds to its bytes)
        for (int sent = 0; sent < oversizeBytes; sent += 1000) {
            String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                    + "{\"type\":\"text_delta\",\"text\":\"" + "x".repeat(Math.min(1000, oversizeBytes - sent)) + "\"}}\n\n";
            out.write(delta.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        for (int i = 3; i < events.size(); i++) {
            out.write(events.get(i).getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A stream paced by {@link #slowStream}, never longer than the request's {@code max_tokens} deltas (as a node
     * stops at the limit); a frozen node stops writing and holds the connection open.
     */
    private void slow(HttpExchange exchange, int maxTokens) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        List<String> events = openAi ? openAiEvents() : anthropicEvents();
        int head = openAi ? 1 : 2;
        for (int i = 0; i < head; i++) {
            out.write(events.get(i).getBytes(StandardCharsets.UTF_8));
        }
        out.flush();
        streaming.incrementAndGet();
        try {
            for (int i = 0; i < Math.min(slowDeltas, maxTokens); i++) {
                if (isFrozen) {
                    awaitQuietly(frozen);
                    return;
                }
                out.write(events.get(head).getBytes(StandardCharsets.UTF_8));
                out.flush();
                // pacing the node's output like a decoding GPU, not synchronising anything
                if (release.await(pace.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
            for (int i = head + 1; i < events.size(); i++) {
                out.write(events.get(i).getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streaming.decrementAndGet();
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private String anthropicJson() {
        return "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"node-model\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"" + reply + "\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}";
    }

    private String openAiJson() {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"node-model\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + reply + "\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,"
                + "\"total_tokens\":15}}";
    }

    private List<String> anthropicEvents() {
        return List.of(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":"
                        + "\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"node-model\",\"stop_reason\":"
                        + "null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"text\",\"text\":\"\"}}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                        + "\"text_delta\",\"text\":\"" + reply + "\"}}\n\n",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":3}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    }

    private List<String> openAiEvents() {
        String head = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":"
                + "\"node-model\",\"choices\":[{\"index\":0,";
        return List.of(head + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{\"content\":\"" + reply + "\"},\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                "data: [DONE]\n\n");
    }

    /** A tool call of {@code get_weather} with {@code {"city":"Paris"}} (the reply text is the tool call's id). */
    private List<String> anthropicToolEvents() {
        return List.of(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_t\",\"type\":"
                        + "\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"node-model\",\"stop_reason\":"
                        + "null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":30,\"output_tokens\":1}}}\n\n",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"tool_use\",\"id\":\"" + reply + "\",\"name\":\"get_weather\",\"input\":{}}}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                        + "\"input_json_delta\",\"partial_json\":\"{\\\"city\\\":\"}}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                        + "\"input_json_delta\",\"partial_json\":\" \\\"Paris\\\"}\"}}\n\n",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
                        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":12}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    }

    private List<String> openAiToolEvents() {
        String head = "data: {\"id\":\"chatcmpl-t\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":"
                + "\"node-model\",\"choices\":[{\"index\":0,";
        return List.of(head + "\"delta\":{\"role\":\"assistant\",\"content\":null},\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"" + reply + "\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]},"
                        + "\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" \\\"Paris\\\"}\"}}]},"
                        + "\"finish_reason\":null}]}\n\n",
                head + "\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
                "data: {\"id\":\"chatcmpl-t\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"node-model\","
                        + "\"choices\":[],\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":12,\"total_tokens\":42,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":20}}}\n\n",
                "data: [DONE]\n\n");
    }

    @Override
    public void close() {
        release.countDown();
        frozen.countDown();
        server.stop(0);
    }
}
