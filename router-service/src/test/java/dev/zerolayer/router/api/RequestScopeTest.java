package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The trace id continues a valid W3C traceparent and is fresh otherwise. */
class RequestScopeTest {

    @Test
    void continuesAValidTraceparentAndIgnoresInvalidOnes() {
        assertThat(RequestScope.traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        String fresh = RequestScope.traceIdOf("00-00000000000000000000000000000000-00f067aa0ba902b7-01");
        assertThat(fresh).hasSize(32).isNotEqualTo("00000000000000000000000000000000");
        assertThat(RequestScope.traceIdOf("garbage")).hasSize(32).isNotEqualTo(RequestScope.traceIdOf(null));
    }
}
