package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import tools.jackson.databind.node.ObjectNode;

/** The two client APIs the gateway speaks; each renders errors in its own shape and maps to the node protocol of the same name. */
public enum ClientApi {
    ANTHROPIC("anthropic", UpstreamProtocol.ANTHROPIC, "/v1/messages"),
    OPENAI("openai", UpstreamProtocol.OPENAI, "/v1/chat/completions");

    private final String wireName;
    private final UpstreamProtocol protocol;
    private final String path;

    ClientApi(String wireName, UpstreamProtocol protocol, String path) {
        this.wireName = wireName;
        this.protocol = protocol;
        this.path = path;
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
