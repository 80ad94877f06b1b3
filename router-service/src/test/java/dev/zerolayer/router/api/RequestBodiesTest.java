package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    @Test
    void aDeclaredLengthIsReadOnlyWhenItIsANonNegativeNumber() {
        assertThat(RequestBodies.declaredLength("1024")).isEqualTo(1024);
        assertThat(RequestBodies.declaredLength(" 7 ")).isEqualTo(7);
        assertThat(RequestBodies.declaredLength("0")).isZero();
        assertThat(RequestBodies.declaredLength(null)).isEqualTo(-1);
        assertThat(RequestBodies.declaredLength("")).isEqualTo(-1);
        assertThat(RequestBodies.declaredLength("-5")).isEqualTo(-1);
        assertThat(RequestBodies.declaredLength("12, 12")).isEqualTo(-1);
        assertThat(RequestBodies.declaredLength("99999999999999999999")).isEqualTo(-1);
    }
}
