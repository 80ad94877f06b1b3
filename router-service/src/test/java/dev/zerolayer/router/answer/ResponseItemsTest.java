package dev.zerolayer.router.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.router.wire.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ResponseItemsTest {

    private static final String SECRET = "zla-0123456789abcdefghijklmnopqrstuv";
    private static final URI A = URI.create("http://10.0.0.1:8080");
    private static final URI B = URI.create("http://10.0.0.2:8080");
    private static final Duration TTL = Duration.ofHours(1);
    private static final Instant MINTED = Instant.parse("2026-12-04T20:15:42Z");

    private static ResponseItems replica(URI self, Instant now) {
        return new ResponseItems(100, TTL, Clock.fixed(now, ZoneOffset.UTC), SealedAddress.fromSecret(SECRET),
                () -> Optional.of(self));
    }

    private static String mintedBy(ResponseItems replica) {
        String id = "msg_" + "0123456789abcdef01234567" + replica.idTail();
        ObjectNode item = EventCodec.mapper().createObjectNode().put("id", id).put("type", "message");
        replica.remember(item);
        return id;
    }

    private static ObjectNode naming(String id) {
        ObjectNode request = EventCodec.mapper().createObjectNode();
        request.putArray("input").addObject().put("type", "item_reference").put("id", id);
        return request;
    }

    @Test
    void theReplicaThatMintedAnItemResolvesItAndAnotherNamesItAsTheHolder() {
        ResponseItems a = replica(A, MINTED);
        String id = mintedBy(a);
        ObjectNode request = naming(id);
        a.resolve(request, false);
        assertThat(request.at("/input/0/type").asString()).isEqualTo("message");

        // Given another replica, asked 50 minutes later: the item is held by A
        ResponseItems b = replica(B, MINTED.plus(Duration.ofMinutes(50)));
        assertThatThrownBy(() -> b.resolve(naming(id), false)).isInstanceOfSatisfying(ItemHeldElsewhere.class,
                held -> assertThat(held.holder()).isEqualTo(A));
        // a request A passed on is never passed on again
        assertThatThrownBy(() -> b.resolve(naming(id), true)).isInstanceOfSatisfying(ApiException.class,
                unknown -> assertThat(unknown.status()).isEqualTo(404));
    }

    @Test
    void anIdOlderThanTheItemLifetimeNamesNobody() {
        String id = mintedBy(replica(A, MINTED));
        // within the lifetime plus the minute its tail may precede the item: still passed on
        ResponseItems justInTime = replica(B, MINTED.plus(TTL).plusSeconds(10));
        assertThatThrownBy(() -> justInTime.resolve(naming(id), false)).isInstanceOf(ItemHeldElsewhere.class);
        // past it, the replica may be gone and its address another process's: the id names nobody
        ResponseItems late = replica(B, MINTED.plus(TTL).plus(Duration.ofMinutes(2)));
        assertThatThrownBy(() -> late.resolve(naming(id), false)).isInstanceOfSatisfying(ApiException.class,
                unknown -> assertThat(unknown.status()).isEqualTo(404));
    }

    @Test
    void anIdNamingThisReplicaThatItDoesNotHoldIsUnknown() {
        String id = mintedBy(replica(A, MINTED));
        // A restarted: same address, memory gone
        ResponseItems restarted = replica(A, MINTED.plusSeconds(30));
        assertThatThrownBy(() -> restarted.resolve(naming(id), false)).isInstanceOfSatisfying(ApiException.class,
                unknown -> assertThat(unknown.status()).isEqualTo(404));
    }

    @Test
    void itemsMintedInOneMinuteShareATailSealedWithTheMinutesStart() {
        ResponseItems a = replica(A, MINTED);
        String tail = a.idTail();
        assertThat(a.idTail()).isEqualTo(tail);
        assertThat(SealedAddress.fromSecret(SECRET).open(tail))
                .contains(new SealedAddress.Sealed(A, Instant.parse("2026-12-04T20:15:00Z")));
    }
}
