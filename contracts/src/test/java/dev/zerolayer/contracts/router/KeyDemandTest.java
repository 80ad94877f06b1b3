package dev.zerolayer.contracts.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.event.InvalidEventException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyDemandTest {

    private static final Instant AT = Instant.parse("2026-12-04T20:00:00Z");

    private static KeyDemand demand(long periodMillis, Map<String, Long> requests) {
        return new KeyDemand("evt-1", AT, 1, "router-a", periodMillis, requests);
    }

    @Test
    void keysAreKeptInOrderAndTheRecordIsKeyedByItsReplica() {
        KeyDemand demand = demand(250, Map.of("key-b", 2L, "anonymous", 0L, "0123456789ab", 7L));
        assertThat(demand.requests().keySet()).containsExactly("0123456789ab", "anonymous", "key-b");
        assertThat(demand.key()).isEqualTo("router-a");
    }

    @Test
    void aRecordWithNoKeysTooManyOrOnesThatAreNotKeyIdsIsRefused() {
        assertThatThrownBy(() -> demand(250, Map.of())).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> demand(250, null)).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> demand(250, Map.of("a key with spaces", 1L))).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> demand(250, Map.of("k".repeat(65), 1L))).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> demand(250, Map.of("key-1", -1L))).isInstanceOf(InvalidEventException.class);
        Map<String, Long> many = new HashMap<>();
        for (int i = 0; i <= KeyDemand.MAX_KEYS; i++) {
            many.put("key-" + i, 1L);
        }
        assertThatThrownBy(() -> demand(250, many)).isInstanceOf(InvalidEventException.class);
        many.remove("key-0");
        assertThat(demand(250, many).requests()).hasSize(KeyDemand.MAX_KEYS);
    }

    @Test
    void thePeriodIsWithinAMinute() {
        assertThatThrownBy(() -> demand(0, Map.of("key-1", 1L))).isInstanceOf(InvalidEventException.class);
        assertThatThrownBy(() -> demand(60_001, Map.of("key-1", 1L))).isInstanceOf(InvalidEventException.class);
        assertThat(demand(60_000, Map.of("key-1", 1L)).periodMillis()).isEqualTo(60_000);
    }
}
