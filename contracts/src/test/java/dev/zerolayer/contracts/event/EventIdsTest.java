package dev.zerolayer.contracts.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventIdsTest {

    @Test
    void eventIdsAreDistinctVersion4UuidsWithTheIetfVariant() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = EventChecks.newEventId();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(seen.add(id)).isTrue();
        }
    }
}
