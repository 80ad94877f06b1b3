package dev.zerolayer.router.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** The client's end-to-end headers reach the node; hop-by-hop headers, credentials and the gateway's own do not. */
class ForwardedHeadersTest {

    private static HttpHeaders client() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Anthropic-Beta", "claude-code-20250219,interleaved-thinking-2025-05-14");
        headers.add("anthropic-beta", "context-management-2025-06-27");
        headers.add("anthropic-version", "2023-06-01");
        headers.add("OpenAI-Organization", "org-1");
        headers.add("X-API-KEY", "secret");
        headers.add("authorization", "Bearer secret");
        headers.add("Cookie", "a=b");
        headers.add("Connection", "keep-alive, X-Hop");
        headers.add("x-hop", "1");
        headers.add("Keep-Alive", "timeout=5");
        headers.add("Transfer-Encoding", "chunked");
        headers.add("Content-Length", "10");
        headers.add("Host", "router");
        headers.add("Accept-Encoding", "gzip");
        headers.add("Anthropic-Routing-Priority", "opus");
        headers.add("anthropic-routing-priority", "sonnet");
        headers.add("anthropic-debug", "route");
        headers.add("anthropic-trace", "true");
        headers.add("x-session-id", "s");
        headers.add("traceparent", "00-abc-def-01");
        headers.add("User-Agent", "claude-cli/2.1");
        headers.add("x-stainless-lang", "js");
        headers.add("X-ZeroLayer-Peer-Proof", "sealed");
        headers.add("x-zerolayer-forwarded-from", "router-2");
        return headers;
    }

    private static List<String> names(List<Map.Entry<String, String>> headers) {
        return headers.stream().map(Map.Entry::getKey).toList();
    }

    @Test
    void aNodeOfTheClientsApiGetsEveryEndToEndHeaderWithEveryValue() {
        List<Map.Entry<String, String>> sent = ForwardedHeaders.of(client()).forNode(ClientApi.ANTHROPIC,
                UpstreamProtocol.ANTHROPIC, Map.of("traceparent", "00-ours-01"));
        assertThat(sent).extracting(Map.Entry::getValue).contains(
                "claude-code-20250219,interleaved-thinking-2025-05-14", "context-management-2025-06-27");
        assertThat(names(sent)).containsExactlyInAnyOrder("anthropic-beta", "anthropic-beta", "anthropic-version",
                "user-agent", "x-stainless-lang", "traceparent");
        assertThat(sent).contains(Map.entry("traceparent", "00-ours-01"));
    }

    @Test
    void aNodeOfTheOtherApiGetsNoneOfTheClientApisOwnHeaders() {
        ForwardedHeaders headers = ForwardedHeaders.of(client());
        List<Map.Entry<String, String>> toOpenAi = headers.forNode(ClientApi.ANTHROPIC, UpstreamProtocol.OPENAI,
                Map.of());
        assertThat(names(toOpenAi)).containsExactlyInAnyOrder("user-agent", "x-stainless-lang");
        List<Map.Entry<String, String>> toAnthropic = headers.forNode(ClientApi.OPENAI, UpstreamProtocol.ANTHROPIC,
                Map.of());
        // an Anthropic node always learns the Messages API version
        assertThat(toAnthropic).contains(Map.entry("anthropic-version", ForwardedHeaders.ANTHROPIC_VERSION));
        assertThat(names(toAnthropic)).doesNotContain("openai-organization", "anthropic-beta");
        List<Map.Entry<String, String>> sameOpenAi = headers.forNode(ClientApi.OPENAI, UpstreamProtocol.OPENAI,
                Map.of());
        assertThat(names(sameOpenAi)).contains("openai-organization").doesNotContain("anthropic-beta");
    }
}
