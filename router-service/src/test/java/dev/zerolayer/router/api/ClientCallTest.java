package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ClientCallTest {

    @Test
    void readsPathAndQueryAsTheUriClassReadsAnOriginFormTarget() {
        for (String target : new String[] {"/v1/messages", "/v1/messages?beta=true", "/v1/messages?", "/",
                "/v1/responses/resp_%41b/input_items?limit=2&order=asc", "/v1/messages/?a=b?c"}) {
            URI uri = URI.create(target);
            assertThat(ClientCall.path(target)).as(target).isEqualTo(uri.getRawPath());
            assertThat(ClientCall.query(target)).as(target).isEqualTo(uri.getRawQuery());
        }
    }

    @Test
    void readsThePathAfterTheAuthorityOfAnAbsoluteFormTarget() {
        assertThat(ClientCall.path("http://router:8080/v1/messages?beta=true")).isEqualTo("/v1/messages");
        assertThat(ClientCall.query("http://router:8080/v1/messages?beta=true")).isEqualTo("beta=true");
        assertThat(ClientCall.path("http://router:8080")).isEqualTo("/");
        assertThat(ClientCall.query("http://router:8080")).isNull();
    }
}
