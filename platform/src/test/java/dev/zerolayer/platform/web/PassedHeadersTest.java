package dev.zerolayer.platform.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.WebClientRequestException;

class PassedHeadersTest {

    @Test
    void hopByHopHeadersTheBodysLengthAndThoseConnectionNamesStayBehind() {
        HttpHeaders from = new HttpHeaders();
        from.add("Authorization", "Bearer k");
        from.add("x-api-key", "k");
        from.add("traceparent", "00-1-2-01");
        from.add("Content-Type", "application/json");
        from.add("Accept", "text/event-stream");
        from.add("Accept", "application/json");
        for (String dropped : new String[] {"Host", "Connection", "Keep-Alive", "Transfer-Encoding", "TE", "Upgrade",
                "Proxy-Authorization", "Proxy-Authenticate", "Trailer", "Expect", "Content-Length", "X-Hop"}) {
            from.add(dropped, "v");
        }
        from.set("Connection", "keep-alive, X-Hop");
        HttpHeaders to = new HttpHeaders();
        PassedHeaders.copy(from, to);
        assertThat(to.headerNames()).containsExactlyInAnyOrder("Authorization", "x-api-key", "traceparent",
                "Content-Type", "Accept");
        assertThat(to.get("Accept")).containsExactly("text/event-stream", "application/json");
    }

    @Test
    void onlyARefusedConnectionOrAnUnknownHostIsNeverSent() {
        URI uri = URI.create("http://127.0.0.1:1/");
        assertThat(PassedHeaders.neverSent(new WebClientRequestException(new ConnectException("refused"),
                HttpMethod.POST, uri, new HttpHeaders()))).isTrue();
        assertThat(PassedHeaders.neverSent(new WebClientRequestException(new java.net.UnknownHostException("x"),
                HttpMethod.POST, uri, new HttpHeaders()))).isTrue();
        assertThat(PassedHeaders.neverSent(new WebClientRequestException(new java.io.IOException("reset"),
                HttpMethod.POST, uri, new HttpHeaders()))).isFalse();
        assertThat(PassedHeaders.neverSent(new IllegalStateException("x"))).isFalse();
    }
}
