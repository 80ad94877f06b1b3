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

    @Test
    void aStoredResponsesInputItemsAreItsConversationsTurnsThenItsOwnInputPagedAsTheApiPagesThem() {
        ResponseItems a = replica(A, MINTED);
        // Given two turns, the second going on from the first, its input an item list with an id of its own
        ObjectNode first = request(null, "hi");
        a.resolve(first, false, KEY);
        String one = answer(a, first, "hello");
        ObjectNode second = request(one, "unused");
        second.putArray("input").addObject().put("role", "user").put("content", "more")
                .put("id", "msg_client_given");
        a.resolve(second, false, KEY);
        String two = answer(a, second, "sure");

        // When the second's input items are listed (newest first by default)
        JsonNode page = a.inputItems(two, false, KEY, InputItemsQuery.of(Optional.empty(), Optional.empty(),
                Optional.empty()));

        // Then they are the first turn's input and output, then its own input; not its own output
        assertThat(page.path("object").asString()).isEqualTo("list");
        List<JsonNode> data = page.get("data").valueStream().toList();
        assertThat(data).extracting(item -> item.path("role").asString() + ":"
                + item.at("/content/0/text").asString()).containsExactly("user:more", "assistant:hello", "user:hi");
        // each a message item with an id (the client's own kept), typed content and a status
        assertThat(data.get(0).path("id").asString()).isEqualTo("msg_client_given");
        assertThat(data.get(2).path("id").asString()).startsWith("msg_").isNotEqualTo("msg_client_given");
        assertThat(data.get(2).path("type").asString()).isEqualTo("message");
        assertThat(data.get(2).at("/content/0/type").asString()).isEqualTo("input_text");
        assertThat(data.get(0).path("status").asString()).isEqualTo("completed");
        assertThat(page.path("first_id").asString()).isEqualTo("msg_client_given");
        assertThat(page.path("last_id").asString()).isEqualTo(data.get(2).path("id").asString());
        assertThat(page.path("has_more").asBoolean(true)).isFalse();
        // a minted id stays the same from one listing to the next, so it can be paged after
        String oldest = data.get(2).path("id").asString();
        JsonNode ascending = a.inputItems(two, false, KEY, InputItemsQuery.of(Optional.of("2"), Optional.of("asc"),
                Optional.empty()));
        assertThat(ascending.at("/data/0/id").asString()).isEqualTo(oldest);
        assertThat(ascending.get("data").size()).isEqualTo(2);
        assertThat(ascending.path("has_more").asBoolean()).isTrue();
        JsonNode rest = a.inputItems(two, false, KEY, InputItemsQuery.of(Optional.of("2"), Optional.of("asc"),
                Optional.of(ascending.path("last_id").asString())));
        assertThat(rest.get("data").valueStream().map(item -> item.path("id").asString()).toList())
                .containsExactly("msg_client_given");
        assertThat(rest.path("has_more").asBoolean(true)).isFalse();
        // the first turn's own input is only its own
        assertThat(a.inputItems(one, false, KEY, InputItemsQuery.of(Optional.empty(), Optional.empty(),
                Optional.empty())).get("data").size()).isEqualTo(1);

        // and another key, an unknown response, or one another replica keeps, as reading it does
        assertThatThrownBy(() -> a.inputItems(two, false, "key-2", InputItemsQuery.of(Optional.empty(),
                Optional.empty(), Optional.empty()))).isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
        ResponseItems b = replica(B, MINTED.plusSeconds(5));
        assertThatThrownBy(() -> b.inputItems(two, false, KEY, InputItemsQuery.of(Optional.empty(), Optional.empty(),
                Optional.empty()))).isInstanceOfSatisfying(ItemHeldElsewhere.class,
                        held -> assertThat(held.holder()).isEqualTo(A));
    }

    @Test
    void anInputItemsPageOutsideWhatTheApiTakesIsA400NamingTheParameter() {
        assertThatThrownBy(() -> InputItemsQuery.of(Optional.of("0"), Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.param()).isEqualTo("limit");
                });
        assertThatThrownBy(() -> InputItemsQuery.of(Optional.of("101"), Optional.empty(), Optional.empty()))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> InputItemsQuery.of(Optional.of("ten"), Optional.empty(), Optional.empty()))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> InputItemsQuery.of(Optional.empty(), Optional.of("newest"), Optional.empty()))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.param()).isEqualTo("order"));
        assertThat(InputItemsQuery.of(Optional.of("100"), Optional.of("asc"), Optional.of("")))
                .isEqualTo(new InputItemsQuery(100, true, null));
    }
}
