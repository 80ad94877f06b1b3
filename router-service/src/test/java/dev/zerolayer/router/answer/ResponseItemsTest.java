package dev.zerolayer.router.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.platform.replica.SealedAddress;
import dev.zerolayer.platform.testing.MutableClock;
import dev.zerolayer.router.wire.ApiException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ResponseItemsTest {

    private static final String SECRET = "zla-0123456789abcdefghijklmnopqrstuv";
    private static final URI A = URI.create("http://10.0.0.1:8080");
    private static final URI B = URI.create("http://10.0.0.2:8080");
    private static final Duration TTL = Duration.ofHours(1);
    private static final Instant MINTED = Instant.parse("2026-12-04T20:15:42Z");
    private static final String KEY = "key-1";

    private static ResponseItems replica(URI self, Instant now) {
        return new ResponseItems(100, TTL, Clock.fixed(now, ZoneOffset.UTC), SealedAddress.fromSecret(SECRET),
                () -> Optional.of(self));
    }

    private static String mintedBy(ResponseItems replica) {
        String id = "msg_" + "0123456789abcdef01234567" + replica.idTail();
        ObjectNode item = EventCodec.mapper().createObjectNode().put("id", id).put("type", "message");
        replica.forKey(KEY).remember(item);
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
        a.resolve(request, false, KEY);
        assertThat(request.at("/input/0/type").asString()).isEqualTo("message");

        // Given another replica, asked 50 minutes later: the item is held by A
        ResponseItems b = replica(B, MINTED.plus(Duration.ofMinutes(50)));
        assertThatThrownBy(() -> b.resolve(naming(id), false, KEY)).isInstanceOfSatisfying(ItemHeldElsewhere.class,
                held -> assertThat(held.holder()).isEqualTo(A));
        // a request A passed on is never passed on again
        assertThatThrownBy(() -> b.resolve(naming(id), true, KEY)).isInstanceOfSatisfying(ApiException.class,
                unknown -> assertThat(unknown.status()).isEqualTo(404));
    }

    @Test
    void anIdOlderThanTheItemLifetimeNamesNobody() {
        String id = mintedBy(replica(A, MINTED));
        // within the lifetime plus the minute its tail may precede the item: still passed on
        ResponseItems justInTime = replica(B, MINTED.plus(TTL).plusSeconds(10));
        assertThatThrownBy(() -> justInTime.resolve(naming(id), false, KEY)).isInstanceOf(ItemHeldElsewhere.class);
        // past it, the replica may be gone and its address another process's: the id names nobody
        ResponseItems late = replica(B, MINTED.plus(TTL).plus(Duration.ofMinutes(2)));
        assertThatThrownBy(() -> late.resolve(naming(id), false, KEY)).isInstanceOfSatisfying(ApiException.class,
                unknown -> assertThat(unknown.status()).isEqualTo(404));
    }

    @Test
    void anIdNamingThisReplicaThatItDoesNotHoldIsUnknown() {
        String id = mintedBy(replica(A, MINTED));
        // A restarted: same address, memory gone
        ResponseItems restarted = replica(A, MINTED.plusSeconds(30));
        assertThatThrownBy(() -> restarted.resolve(naming(id), false, KEY)).isInstanceOfSatisfying(ApiException.class,
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

    // previous_response_id

    private static int responses;

    /** Answers {@code request} as replica {@code by} would: one message saying {@code text}; the response id. */
    private static String answer(ResponseItems by, ObjectNode request, String text) {
        String id = "resp_" + String.format("%024x", ++responses) + by.idTail();
        ObjectNode message = EventCodec.mapper().createObjectNode().put("type", "message").put("role", "assistant")
                .put("id", "msg_" + String.format("%024x", responses) + by.idTail());
        message.putArray("content").addObject().put("type", "output_text").put("text", text);
        ObjectNode response = EventCodec.mapper().createObjectNode().put("id", id).put("object", "response")
                .put("status", "completed");
        response.putArray("output").add(message);
        by.forKey(KEY).remember(message);
        by.forKey(KEY).answered(request, response);
        return id;
    }

    private static ObjectNode request(String previous, String input) {
        ObjectNode request = EventCodec.mapper().createObjectNode().put("model", "m").put("input", input)
                .put("instructions", "only the first turn's");
        if (previous != null) {
            request.put("previous_response_id", previous);
        }
        return request;
    }

    private static List<String> texts(ObjectNode request) {
        return request.get("input").valueStream().map(item -> item.path("role").asString() + ":"
                + item.path("content").path(0).path("text").asString()).toList();
    }

    @Test
    void aResponseGoesOnFromTheWholeConversationBeforeIt() {
        ResponseItems a = replica(A, MINTED);
        // Given two turns, the second going on from the first
        ObjectNode first = request(null, "hi");
        a.resolve(first, false, KEY);
        String one = answer(a, first, "hello");
        ObjectNode second = request(one, "more");
        a.resolve(second, false, KEY);
        assertThat(texts(second)).containsExactly("user:hi", "assistant:hello", "user:more");
        String two = answer(a, second, "sure");
        // When a third goes on from the second
        ObjectNode third = request(two, "again");
        a.resolve(third, false, KEY);
        // Then it carries every turn's input and output, oldest first, and keeps the field (the answer echoes it)
        assertThat(texts(third)).containsExactly("user:hi", "assistant:hello", "user:more", "assistant:sure",
                "user:again");
        assertThat(third.path("previous_response_id").asString()).isEqualTo(two);
        assertThat(third.path("instructions").asString()).isEqualTo("only the first turn's"); // its own, not carried
        // each turn is kept once: two responses, their own items only
        assertThat(a.responses()).isEqualTo(2);
    }

    @Test
    void anUnknownUnstoredOrExpiredResponseIsOpenAisNotFound() {
        MutableClock clock = new MutableClock(MINTED);
        ResponseItems a = new ResponseItems(100, TTL, 1 << 20, clock, SealedAddress.fromSecret(SECRET),
                () -> Optional.of(A));
        ObjectNode unstored = request(null, "hi").put("store", false);
        String never = answer(a, unstored, "hello");
        String kept = answer(a, request(null, "hi"), "hello");
        for (String id : List.of(never, "resp_1", "")) {
            assertThatThrownBy(() -> a.resolve(request(id, "more"), false, KEY)).as(id)
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.param()).isEqualTo("previous_response_id");
                        if (!id.isEmpty()) {
                            assertThat(e.code()).isEqualTo("previous_response_not_found");
                            assertThat(e.getMessage()).startsWith("Previous response with id '" + id + "' not found.");
                        }
                    });
        }
        // a conversation in use is kept for the lifetime after its last use, not after its first turn
        clock.advance(Duration.ofMinutes(50));
        a.resolve(request(kept, "more"), false, KEY);
        clock.advance(Duration.ofMinutes(50));
        a.resolve(request(kept, "more"), false, KEY);
        clock.advance(TTL.plusSeconds(1));
        assertThatThrownBy(() -> a.resolve(request(kept, "more"), false, KEY)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo("previous_response_not_found"));
    }

    @Test
    void aResponseAnotherReplicaKeepsNamesItAsTheHolder() {
        ResponseItems a = replica(A, MINTED);
        String one = answer(a, request(null, "hi"), "hello");
        ResponseItems b = replica(B, MINTED.plusSeconds(90));
        assertThatThrownBy(() -> b.resolve(request(one, "more"), false, KEY)).isInstanceOfSatisfying(
                ItemHeldElsewhere.class, held -> {
                    assertThat(held.holder()).isEqualTo(A);
                    assertThat(held.unknown().code()).isEqualTo("previous_response_not_found");
                });
        // passed on by A's peer, it is never passed on again
        assertThatThrownBy(() -> b.resolve(request(one, "more"), true, KEY)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(400));
    }

    @Test
    void theLeastRecentlyUsedConversationsGoBeyondTheBudget() {
        // Given room for about three turns of 10,000 characters
        ResponseItems a = new ResponseItems(100, TTL, 40_000, Clock.fixed(MINTED, ZoneOffset.UTC),
                SealedAddress.fromSecret(SECRET), () -> Optional.of(A));
        String long1 = answer(a, request(null, "x".repeat(10_000)), "a");
        String long2 = answer(a, request(null, "y".repeat(10_000)), "b");
        a.resolve(request(long1, "z"), false, KEY); // used: the most recent now
        String long3 = answer(a, request(null, "w".repeat(10_000)), "c");
        String long4 = answer(a, request(null, "v".repeat(10_000)), "d");
        // Then the least recently used went first, and what is kept still resolves
        assertThat(a.responses()).isEqualTo(3);
        assertThatThrownBy(() -> a.resolve(request(long2, "z"), false, KEY)).isInstanceOf(ApiException.class);
        for (String kept : List.of(long1, long3, long4)) {
            a.resolve(request(kept, "z"), false, KEY);
        }
    }

    @Test
    void aTurnWhoseConversationWentMeanwhileKeepsItsWholeInput() {
        ResponseItems a = new ResponseItems(100, TTL, 2_500, Clock.fixed(MINTED, ZoneOffset.UTC),
                SealedAddress.fromSecret(SECRET), () -> Optional.of(A));
        String one = answer(a, request(null, "x".repeat(1_000)), "a");
        ObjectNode next = request(one, "more");
        a.resolve(next, false, KEY);
        // the first turn goes while the second is answered
        answer(a, request(null, "y".repeat(1_000)), "b");
        answer(a, request(null, "w".repeat(1_000)), "c");
        String two = answer(a, next, "sure");
        ObjectNode third = request(two, "again");
        a.resolve(third, false, KEY);
        assertThat(texts(third)).containsExactly("user:" + "x".repeat(1_000), "assistant:a", "user:more",
                "assistant:sure", "user:again");
    }

    @Test
    void anotherKeyNamesNeitherTheItemsNorTheResponsesAnsweredToThisOne() {
        ResponseItems a = replica(A, MINTED);
        String item = mintedBy(a);
        String response = answer(a, request(null, "hi"), "hello");
        assertThatThrownBy(() -> a.resolve(naming(item), false, "key-2")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> a.resolve(request(response, "more"), false, "key-2"))
                .isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.code()).isEqualTo("previous_response_not_found"));
        // the key that asked still does
        a.resolve(naming(item), false, KEY);
        a.resolve(request(response, "more"), false, KEY);
    }

    @Test
    void aStoredResponseIsReadAndDeletedByItsIdWithItsItems() {
        ResponseItems a = replica(A, MINTED);
        String one = answer(a, request(null, "hi"), "hello");
        JsonNode read = a.retrieve(one, false, KEY);
        assertThat(read.path("id").asString()).isEqualTo(one);
        assertThat(read.at("/output/0/content/0/text").asString()).isEqualTo("hello");
        String itemId = read.at("/output/0/id").asString();
        a.resolve(naming(itemId), false, KEY);
        // another key, or another replica's request passed on, does not see it; another replica names A
        assertThatThrownBy(() -> a.retrieve(one, false, "key-2")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> a.delete(one, false, "key-2")).isInstanceOf(ApiException.class);
        ResponseItems b = replica(B, MINTED.plusSeconds(5));
        assertThatThrownBy(() -> b.retrieve(one, false, KEY)).isInstanceOfSatisfying(ItemHeldElsewhere.class,
                held -> assertThat(held.holder()).isEqualTo(A));
        assertThatThrownBy(() -> b.delete(one, true, KEY)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));

        // When it is deleted
        JsonNode deleted = a.delete(one, false, KEY);

        // Then it, its items and the conversation up to it are gone
        assertThat(deleted.toString()).isEqualTo("{\"id\":\"" + one + "\",\"object\":\"response\",\"deleted\":true}");
        assertThat(a.responses()).isZero();
        assertThatThrownBy(() -> a.retrieve(one, false, KEY)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> a.resolve(naming(itemId), false, KEY)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> a.resolve(request(one, "more"), false, KEY))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
