package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import tools.jackson.databind.node.ObjectNode;

/** The two client APIs the gateway speaks; each renders errors in its own shape and maps to the node protocol of the same name. */
public enum ClientApi {
    ANTHROPIC("anthropic", UpstreamProtocol.ANTHROPIC, "/v1/messages", "input_tokens", "output_tokens"),
    OPENAI("openai", UpstreamProtocol.OPENAI, "/v1/chat/completions", "prompt_tokens", "completion_tokens");

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

    public UpstreamProtocol protocol() {
        return protocol;
    }

    /** The upstream path of this API on a node speaking it. */
    public String path() {
        return path;
    }

    public static ClientApi of(UpstreamProtocol protocol) {
        return protocol == UpstreamProtocol.OPENAI ? OPENAI : ANTHROPIC;
    }

    /** The API's error object: Anthropic {@code {"type":"error","error":{…}}}, OpenAI {@code {"error":{…}}}. */
    public ObjectNode errorObject(String type, String message) {
        ObjectNode root = EventCodec.mapper().createObjectNode();
        if (this == ANTHROPIC) {
            root.put("type", "error");
            ObjectNode error = root.putObject("error");
            error.put("type", type);
            error.put("message", message);
        } else {
            ObjectNode error = root.putObject("error");
            error.put("message", message);
            error.put("type", type);
            error.putNull("param");
            error.putNull("code");
        }
        return root;
    }

    public byte[] errorBody(String type, String message) {
        return EventCodec.mapper().writeValueAsBytes(errorObject(type, message));
    }
}
