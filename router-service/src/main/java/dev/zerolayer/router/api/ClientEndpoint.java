package dev.zerolayer.router.api;

import dev.zerolayer.router.wire.ClientApi;

/** A client API's POST endpoint: its path, the API its body speaks, and what the gateway does with it. */
public enum ClientEndpoint {
    MESSAGES("/v1/messages", ClientApi.ANTHROPIC, Progress.Mode.DISPATCH),
    COUNT_TOKENS("/v1/messages/count_tokens", ClientApi.ANTHROPIC, Progress.Mode.COUNT),
    CHAT_COMPLETIONS("/v1/chat/completions", ClientApi.OPENAI, Progress.Mode.DISPATCH),
    RESPONSES("/v1/responses", ClientApi.RESPONSES, Progress.Mode.DISPATCH),
    COMPLETIONS("/v1/completions", ClientApi.COMPLETIONS, Progress.Mode.DISPATCH),
    EXPLAIN("/v1/route/explain", ClientApi.ANTHROPIC, Progress.Mode.EXPLAIN);

    private final String path;
    private final ClientApi api;
    private final Progress.Mode mode;

    ClientEndpoint(String path, ClientApi api, Progress.Mode mode) {
        this.path = path;
        this.api = api;
        this.mode = mode;
    }

    public String path() {
        return path;
    }

    ClientApi api() {
        return api;
    }

    Progress.Mode mode() {
        return mode;
    }
}
