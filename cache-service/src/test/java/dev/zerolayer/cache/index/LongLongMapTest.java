package dev.zerolayer.cache.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive map answers exactly as a HashMap does under random puts and removes, across growth and wrap-around. */
class LongLongMapTest {

    @Test
    void behavesLikeAHashMapUnderRandomOperations() {
        Random random = new Random(7);
        LongLongMap map = new LongLongMap(4);
        Map<Long, Long> reference = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long key = random.nextInt(5_000) - 2_500L; // small keys collide and cluster; 0 and negatives included
            switch (random.nextInt(3)) {
                case 0, 1 -> {
                    long value = random.nextLong();
                    map.put(key, value);
                    reference.put(key, value);
                }
                default -> {
                    Long expected = reference.remove(key);
                    assertThat(map.remove(key)).isEqualTo(expected == null ? LongLongMap.MISSING : expected);
                }
            }
        }
        assertThat(map.size()).isEqualTo(reference.size());
        reference.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
        for (long k = -2_500; k < 2_500; k++) {
            assertThat(map.containsKey(k)).isEqualTo(reference.containsKey(k));
        }
        Map<Long, Long> visited = new HashMap<>();
        map.forEach(visited::put);
        assertThat(visited).isEqualTo(reference);
        assertThat(map.removeIf(k -> k % 2 == 0)).isEqualTo((int) reference.keySet().stream().filter(k -> k % 2 == 0)
                .count());
        reference.keySet().removeIf(k -> k % 2 == 0);
        reference.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
        assertThat(map.size()).isEqualTo(reference.size());
    }
}
