package dev.zerolayer.platform.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ReplicaAddressTest {

    @Test
    void aConfiguredUrlIsKnownAtOnceAndTheBoundPortDoesNotReplaceIt() {
        ReplicaAddress address = ReplicaAddress.of(" http://fallback-0.fallback:18084 ");

        address.serverStarted(40000);

        assertThat(address.get()).contains(URI.create("http://fallback-0.fallback:18084"));
    }

    @Test
    void withoutOneTheAddressIsUnknownUntilTheServerListens() {
        ReplicaAddress address = ReplicaAddress.of("");
        assertThat(address.get()).isEmpty();

        address.serverStarted(18084);

        assertThat(address.get()).hasValueSatisfying(url -> {
            assertThat(url.getScheme()).isEqualTo("http");
            assertThat(url.getPort()).isEqualTo(18084);
            assertThat(url.getHost()).isNotBlank();
        });
    }

    @Test
    void refusesAUrlThatIsNotHttpWithAHost() {
        assertThatThrownBy(() -> ReplicaAddress.of("fallback:18084")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zerolayer.advertised-url");
        assertThatThrownBy(() -> ReplicaAddress.of("ftp://h:1")).isInstanceOf(IllegalArgumentException.class);
    }
}
