package dev.zerolayer.router.wire;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.platform.web.ApiError;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client APIs the gateway speaks: each has its path, the usage field names of its answers, its error shape
 * (Anthropic's, or OpenAI's for the three OpenAI APIs) and the node protocol that serves it without translation (none
 * for the Responses API, which is always translated).
 */
public enum ClientApi {
    ANTHROPIC("anthropic", UpstreamProtocol.ANTHROPIC, "/v1/messages", "input_tokens", "output_tokens"),
    OPENAI("openai", UpstreamProtocol.OPENAI, "/v1/chat/completions", "prompt_tokens", "completion_tokens"),
    RESPONSES("openai-responses", null, "/v1/responses", "input_tokens", "output_tokens"),
    COMPLETIONS("openai-completions", UpstreamProtocol.OPENAI, "/v1/completions", "prompt_tokens",
            "completion_tokens");

    private final String wireName;
    private final UpstreamProtocol protocol;
    private final String path;
    private final String inputTokensField;
    private final String outputTokensField;

    ClientApi(String wireName, UpstreamProtocol protocol, String path, String inputTokensField,
            String outputTokensField) {
        this.wireName = wireName;
        this.protocol = protocol;
        this.path = path;
        this.inputTokensField = inputTokensField;
        this.outputTokensField = outputTokensField;
    }

    /** The field of this API's {@code usage} object that counts the prompt's tokens. */
    public String inputTokensField() {
        return inputTokensField;
    }

    /** The field of this API's {@code usage} object that counts the generated tokens. */
    public String outputTokensField() {
        return outputTokensField;
    }

    public String wireName() {
        return wireName;
    }

    /** The node protocol that serves this API as it is (null: none, always translated). */
    public UpstreamProtocol protocol() {
        return protocol;
    }

    /** Whether a node of {@code protocol} serves this API without translation. */
    public boolean nativeTo(UpstreamProtocol nodeProtocol) {
        return protocol != null && protocol == nodeProtocol;
    }

    /** The path of this API (on the gateway, and on a node speaking it). */
    public String path() {
        return path;
    }

    /** Whether errors take OpenAI's shape ({@code {"error":{message,type,param,code}}}). */
    public boolean openAiShaped() {
        return this != ANTHROPIC;
    }

    /** The node API of a node protocol: Anthropic Messages or OpenAI Chat Completions. */
    public static ClientApi of(UpstreamProtocol protocol) {
        return protocol == UpstreamProtocol.OPENAI ? OPENAI : ANTHROPIC;
    }

    /** The API whose error shape a path's errors take: OpenAI's on the OpenAI paths, else Anthropic's. */
    public static ClientApi forPath(String path) {
        if (path == null) {
            return ANTHROPIC;
        }
        if (path.startsWith("/v1/chat/")) {
            return OPENAI;
        }
        if (path.equals("/v1/responses") || path.startsWith("/v1/responses/")) {
            return RESPONSES;
        }
        if (path.equals("/v1/completions") || path.startsWith("/v1/completions/")) {
            return COMPLETIONS;
        }
        return ANTHROPIC;
    }

    /**
     * The API's error object: Anthropic {@code {"type":"error","error":{…}}} (the platform's {@link ApiError} body), OpenAI
     * {@code {"error":{…}}}.
     */
    public ObjectNode errorObject(String type, String message) {
        return errorObject(type, message, null, null);
    }

    /** The error object with OpenAI's {@code param} and {@code code} (null: none; Anthropic's shape has neither). */
    public ObjectNode errorObject(String type, String message, String param, String code) {
        if (!openAiShaped()) {
            return EventCodec.mapper().valueToTree(ApiError.body(type, message));
        }
        ObjectNode root = EventCodec.mapper().createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", openAiType(type));
        error.put("param", param);
        error.put("code", code);
        return root;
    }

    public byte[] errorBody(String type, String message) {
        return errorBody(type, message, null, null);
    }

    public byte[] errorBody(String type, String message, String param, String code) {
        return EventCodec.bytes(errorObject(type, message, param, code));
    }

    /** OpenAI's error type for an Anthropic one (OpenAI names server-side failures {@code server_error}). */
    static String openAiType(String anthropicType) {
        return switch (anthropicType) {
            case "api_error", "overloaded_error" -> "server_error";
            case "not_found_error", "request_too_large" -> "invalid_request_error";
            default -> anthropicType;
        };
    }
}
