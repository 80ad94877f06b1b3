package dev.zerolayer.router.warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A loopback inference node for the warm-up: answers any POST at once as an Anthropic ({@code /v1/messages}) or OpenAI
 * ({@code /v1/chat/completions}, {@code /v1/completions}) server would, whole or as server-sent events as the body's
 * {@code stream} asks, with a fixed synthetic text; it reads no prompt beyond that flag.
 */
final class StandInNode implements AutoCloseable {

    private static final Pattern STREAM = Pattern.compile("\"stream\"\\s*:\\s*true");
    private static final int DELTAS = 8;

    private final DisposableServer server;

    private StandInNode(DisposableServer server) {
        this.server = server;
    }

    /** Listens on 127.0.0.1, on a port of the system's choosing. */
    static StandInNode start() {
        return new StandInNode(HttpServer.create().host("127.0.0.1").port(0).handle(StandInNode::answer).bindNow());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    private static Mono<Void> answer(HttpServerRequest request, HttpServerResponse response) {
        String path = request.fullPath();
        return request.receive().aggregate().asString().defaultIfEmpty("").flatMap(body -> {
            boolean stream = STREAM.matcher(body).find();
            Kind kind = path.endsWith("/chat/completions") ? Kind.CHAT
                    : path.endsWith("/completions") ? Kind.COMPLETION : Kind.MESSAGES;
            if (!stream) {
                return response.header("content-type", "application/json").sendString(Mono.just(kind.whole()))
                        .then();
            }
            return response.header("content-type", "text/event-stream")
                    .sendString(Flux.fromIterable(kind.events()), java.nio.charset.StandardCharsets.UTF_8).then();
        });
    }

    @Override
    public void close() {
        server.disposeNow();
    }

    /** The upstream API asked for, by path. */
    private enum Kind {
        MESSAGES, CHAT, COMPLETION;

        String whole() {
            return switch (this) {
                case MESSAGES -> "{\"id\":\"msg_warmup\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
                        + "\"stand-in\",\"content\":[{\"type\":\"text\",\"text\":\"" + text() + "\"}],\"stop_reason\":"
                        + "\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":24,\"output_tokens\":"
                        + DELTAS + "}}";
                case CHAT -> "{\"id\":\"chatcmpl-warmup\",\"object\":\"chat.completion\",\"created\":1,\"model\":"
                        + "\"stand-in\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
                        + text() + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":24,"
                        + "\"completion_tokens\":" + DELTAS + ",\"total_tokens\":" + (24 + DELTAS) + "}}";
                case COMPLETION -> "{\"id\":\"cmpl-warmup\",\"object\":\"text_completion\",\"created\":1,\"model\":"
                        + "\"stand-in\",\"choices\":[{\"index\":0,\"text\":\"" + text() + "\",\"finish_reason\":"
                        + "\"stop\"}],\"usage\":{\"prompt_tokens\":24,\"completion_tokens\":" + DELTAS
                        + ",\"total_tokens\":" + (24 + DELTAS) + "}}";
            };
        }

        List<String> events() {
            List<String> events = new ArrayList<>();
            switch (this) {
                case MESSAGES -> {
                    events.add("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":"
                            + "\"msg_warmup\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":"
                            + "\"stand-in\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":24,"
                            + "\"output_tokens\":1}}}\n\n");
                    events.add("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
                    for (int i = 0; i < DELTAS; i++) {
                        events.add("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"word \"}}\n\n");
                    }
                    events.add("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n");
                    events.add("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
                            + "\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + DELTAS + "}}\n\n");
                    events.add("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
                }
                case CHAT -> {
                    String head = "data: {\"id\":\"chatcmpl-warmup\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                            + "\"model\":\"stand-in\",\"choices\":[{\"index\":0,";
                    events.add(head + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n");
                    for (int i = 0; i < DELTAS; i++) {
                        events.add(head + "\"delta\":{\"content\":\"word \"},\"finish_reason\":null}]}\n\n");
                    }
                    events.add(head + "\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":24,"
                            + "\"completion_tokens\":" + DELTAS + ",\"total_tokens\":" + (24 + DELTAS) + "}}\n\n");
                    events.add("data: [DONE]\n\n");
                }
                case COMPLETION -> {
                    String head = "data: {\"id\":\"cmpl-warmup\",\"object\":\"text_completion\",\"created\":1,"
                            + "\"model\":\"stand-in\",\"choices\":[{\"index\":0,";
                    for (int i = 0; i < DELTAS; i++) {
                        events.add(head + "\"text\":\"word \",\"finish_reason\":null}]}\n\n");
                    }
                    events.add(head + "\"text\":\"\",\"finish_reason\":\"stop\"}]}\n\n");
                    events.add("data: [DONE]\n\n");
                }
                default -> throw new IllegalStateException();
            }
            return events;
        }

        private static String text() {
            return "word ".repeat(DELTAS).trim();
        }
    }
}
