package dev.zerolayer.localstack.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HealthProbeTest {

    @Test
    void theOverallHealthIsTheTopLevelStatusWhereverItIs() {
        assertThat(HealthProbe.overallStatus("{\"status\":\"UP\",\"components\":{\"kafka\":{\"status\":\"UP\"}}}"))
                .isEqualTo("UP");
        assertThat(HealthProbe.overallStatus("{\"status\" : \"DOWN\",\"components\":{\"a\":{\"status\":\"UP\"}}}"))
                .isEqualTo("DOWN");
        assertThat(HealthProbe.overallStatus("{\"components\":{\"kafka\":{\"status\":\"UP\",\"x\":[\"a\\\"}\"]}},"
                + "\"groups\":[\"liveness\"],\"status\":\"OUT_OF_SERVICE\"}")).isEqualTo("OUT_OF_SERVICE");
        assertThat(HealthProbe.overallStatus("{\"components\":{\"a\":{\"status\":\"UP\"}}}")).isNull();
        assertThat(HealthProbe.overallStatus("{}")).isNull();
    }
}
