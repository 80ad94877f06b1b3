package dev.zerolayer.platform.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdminGuardTest {

    private final AdminGuard guard = new AdminGuard("s3cret-admin");

    @Test
    void rightBearerTokenPassesWithAFingerprintNotTheToken() {
        var principal = guard.require("Bearer s3cret-admin");
        assertThat(principal.id()).startsWith("admin:").doesNotContain("s3cret");
        assertThat(guard.require("bearer s3cret-admin ")).isEqualTo(principal);
    }

    @Test
    void missingOrNonBearerHeaderIs401() {
        assertThatThrownBy(() -> guard.require(null)).isInstanceOfSatisfying(AdminDeniedException.class,
                e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> guard.require("Basic YWJj")).isInstanceOfSatisfying(AdminDeniedException.class,
                e -> assertThat(e.status()).isEqualTo(401));
    }

    @Test
    void wrongTokenIs403() {
        assertThatThrownBy(() -> guard.require("Bearer s3cret-admiN")).isInstanceOfSatisfying(
                AdminDeniedException.class, e -> assertThat(e.status()).isEqualTo(403));
    }

    @Test
    void noConfiguredTokenRefusesEveryone() {
        AdminGuard disabled = new AdminGuard("  ");
        assertThat(disabled.enabled()).isFalse();
        assertThatThrownBy(() -> disabled.require("Bearer ")).isInstanceOfSatisfying(AdminDeniedException.class,
                e -> assertThat(e.status()).isEqualTo(403));
    }
}
