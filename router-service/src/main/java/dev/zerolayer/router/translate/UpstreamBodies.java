package dev.zerolayer.router.translate;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.JsonBodies;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * One request's upstream bodies, per node protocol: the client's own body with {@code model} set and streaming on (with
 * usage) for a node of its API, else its translation, made once on first use; or why it cannot be translated. Always
 * streaming: the first byte from a node is its first token, and a whole answer is assembled by the gateway. Used by
 * one request at a time.
 */
public final class UpstreamBodies {

    private final ClientRequest request;
    private final Map<UpstreamProtocol, Object> translated = new LinkedHashMap<>(2);

    public UpstreamBodies(ClientRequest request) {
        this.request = request;
    }

    /** Why the request cannot go to a node of {@code protocol} (null when it can, as it is or translated). */
    public Untranslatable problem(UpstreamProtocol protocol) {
        return request.api().nativeTo(protocol) ? null : translated(protocol) instanceof Untranslatable u ? u : null;
    }

    /** The path to call on a node of {@code protocol}. */
    public String path(UpstreamProtocol protocol) {
        return request.api().nativeTo(protocol) ? request.api().path() : ClientApi.of(protocol).path();
    }

    /** The body for a node of {@code protocol} serving {@code nodeModel}. */
    public byte[] body(UpstreamProtocol protocol, String nodeModel) {
        Map<String, JsonNode> overrides = new LinkedHashMap<>(4);
        overrides.put("model", StringNode.valueOf(nodeModel));
        if (request.api().nativeTo(protocol)) {
            overrides.put("stream", BooleanNode.TRUE);
            if (protocol == UpstreamProtocol.OPENAI) {
                ObjectNode options = request.body().path("stream_options") instanceof ObjectNode given
                        ? given.deepCopy() : EventCodec.mapper().createObjectNode();
                overrides.put("stream_options", options.put("include_usage", true));
            }
            return JsonBodies.withFields(request.body(), overrides);
        }
        Object body = translated(protocol);
        if (body instanceof Untranslatable problem) {
            throw problem;
        }
        return JsonBodies.withFields((ObjectNode) body, overrides);
    }

    /**
     * The body an OpenAI-protocol node gets, before {@code model} and streaming are set: the client's own for an
     * OpenAI API, else its chat translation; null when it cannot be translated.
     */
    public ObjectNode openAiBody() {
        if (request.api().nativeTo(UpstreamProtocol.OPENAI)) {
            return request.body();
        }
        return translated(UpstreamProtocol.OPENAI) instanceof ObjectNode body ? body : null;
    }

    private Object translated(UpstreamProtocol protocol) {
        return translated.computeIfAbsent(protocol, p -> {
            try {
                return translate(p);
            } catch (Untranslatable problem) {
                return problem;
            }
        });
    }

    private ObjectNode translate(UpstreamProtocol protocol) {
        ObjectNode body = request.body();
        return switch (request.api()) {
            case ANTHROPIC -> AnthropicToChat.translate(body);
            case OPENAI -> ChatToAnthropic.translate(body);
            case RESPONSES -> protocol == UpstreamProtocol.OPENAI ? ResponsesToChat.translate(body)
                    : ResponsesToChat.toAnthropic(body);
            case COMPLETIONS -> throw new Untranslatable("prompt", "legacy completions are served by "
                    + "OpenAI-protocol nodes only");
        };
    }

    /** Whether an OpenAI-API client asked for the usage chunk of a stream itself. */
    public boolean clientWantsStreamUsage() {
        return request.body().path("stream_options").path("include_usage").asBoolean(false);
    }
}
