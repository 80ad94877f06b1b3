package dev.zerolayer.router.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP inference node on 127.0.0.1 for tests, answering like an Anthropic or OpenAI server (JSON or SSE), or
 * failing on purpose: HTTP 500/529, hanging without an answer, or cutting a stream after two events. Records what it
 * received (body and headers).
 */
public final class FakeNode implements AutoCloseable {

    /** How the node behaves. */
    public enum Mode { OK, FAIL_500, FAIL_529, HANG, CUT_STREAM }

    /** One request as the node received it. */
    public record Received(String path, String body, Map<String, List<String>> headers) {
    }

    private final HttpServer server;
    private final Mode mode;
    private final boolean openAi;
    private final String reply;
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Received> received = new CopyOnWriteArrayList<>();

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

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(exchange.getRequestURI().getPath(), body, Map.copyOf(exchange.getRequestHeaders())));
        boolean stream = body.contains("\"stream\":true");
        try (exchange) {
            switch (mode) {
                case FAIL_500 -> send(exchange, 500, "application/json", "{\"error\":\"boom\"}");
                case FAIL_529 -> send(exchange, 529, "application/json",
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}");
                case HANG -> {
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
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

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
