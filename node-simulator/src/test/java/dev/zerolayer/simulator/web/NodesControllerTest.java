package dev.zerolayer.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.platform.admin.AdminGuard;
import dev.zerolayer.platform.web.ApiErrorAdvice;
import dev.zerolayer.platform.web.ApiErrorWebHandler;
import dev.zerolayer.simulator.faults.FaultType;
import dev.zerolayer.simulator.fleet.Fleet;
import dev.zerolayer.simulator.fleet.FleetProperties;
import dev.zerolayer.simulator.node.NodeStatus;
import dev.zerolayer.simulator.telemetry.PrometheusExposition;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The admin API over a real two-node fleet: lists nodes with ports, state, load and faults; injects and clears faults
 * with the admin token only (none 401, wrong 403, no token configured 403), changing nothing otherwise; refuses unknown
 * nodes (404), unknown fault types and bad bodies (400) in the error shape.
 */
class NodesControllerTest {

    private static final String TOKEN = "sim-admin-token";
    private static final String ADMIN = "Bearer " + TOKEN;
    private static final List<KvCacheEvent> events = new CopyOnWriteArrayList<>();
    private static Fleet fleet;
    private static WebTestClient client;

    @BeforeAll
    static void start() {
        FleetProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                "zerolayer.simulator.base-port", "0",
                "zerolayer.simulator.latency", "false",
                "zerolayer.simulator.clusters[0].name", "haiku-l4",
                "zerolayer.simulator.clusters[0].tier", "haiku",
                "zerolayer.simulator.clusters[0].nodes", "2",
                "zerolayer.simulator.clusters[0].profile", "L4x2"))).bind("zerolayer.simulator", FleetProperties.class)
                .get();
        fleet = new Fleet(properties, events::add, new PrometheusExposition(), Clock.systemUTC());
        fleet.start();
        client = client(new AdminGuard(TOKEN));
    }

    private static WebTestClient client(AdminGuard guard) {
        return WebTestClient.bindToController(new NodesController(fleet, guard))
                .controllerAdvice(new ApiErrorAdvice(new ApiErrorWebHandler())).build();
    }

    @AfterAll
    static void stop() {
        fleet.close();
    }

    @Test
    void listsNodesWithPortsStateLoadAndFaults() {
        client.get().uri("/admin/nodes").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.nodes.length()").isEqualTo(2)
                .jsonPath("$.nodes[0].id").isEqualTo("haiku-l4-0")
                .jsonPath("$.nodes[0].port").isEqualTo(fleet.node("haiku-l4-0").orElseThrow().port())
                .jsonPath("$.nodes[0].url").isEqualTo(fleet.node("haiku-l4-0").orElseThrow().baseUrl())
                .jsonPath("$.nodes[0].state").isEqualTo("serving")
                .jsonPath("$.nodes[0].load.capacity").isEqualTo(16)
                .jsonPath("$.nodes[0].faults.length()").isEqualTo(0)
                .jsonPath("$.nodes[1].protocol").isEqualTo("anthropic");
    }

    @Test
    void injectsAndClearsFaults() {
        client.post().uri("/admin/nodes/haiku-l4-1/faults").header("authorization", ADMIN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"load_spike\",\"durationMs\":60000,\"intensity\":0.5}").exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.node").isEqualTo("haiku-l4-1")
                .jsonPath("$.fault.type").isEqualTo("load_spike")
                .jsonPath("$.fault.intensity").isEqualTo(0.5);
        client.post().uri("/admin/nodes/haiku-l4-1/faults").header("authorization", ADMIN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"crash\",\"durationMs\":60000}").exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.fault.intensity").isEqualTo(1.0);

        client.get().uri("/admin/nodes/haiku-l4-1").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.state").isEqualTo("crashed")
                .jsonPath("$.load.running").isEqualTo(8)
                .jsonPath("$.faults[*].type").value(types -> assertThat(types).asList()
                        .containsExactly("load_spike", "crash"));

        client.delete().uri("/admin/nodes/haiku-l4-1/faults").header("authorization", ADMIN)
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.cleared.length()").isEqualTo(2);
        assertThat(fleet.node("haiku-l4-1").orElseThrow().faults().list()).isEmpty();
        org.awaitility.Awaitility.await().until(() -> fleet.node("haiku-l4-1").orElseThrow().status()
                == NodeStatus.SERVING);
    }

    @Test
    void refusesUnknownNodesUnknownFaultsAndBadBodies() {
        client.post().uri("/admin/nodes/nope/faults").header("authorization", ADMIN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"crash\",\"durationMs\":1000}").exchange()
                .expectStatus().isNotFound()
                .expectBody()
                .jsonPath("$.type").isEqualTo("error")
                .jsonPath("$.error.type").isEqualTo("not_found_error")
                .jsonPath("$.error.message").value(m -> assertThat((String) m).contains("nope"));
        client.delete().uri("/admin/nodes/nope/faults").header("authorization", ADMIN)
                .exchange().expectStatus().isNotFound();
        client.get().uri("/admin/nodes/nope").exchange().expectStatus().isNotFound();

        for (String body : List.of("{\"type\":\"meltdown\",\"durationMs\":1000}", "{not json", "[]", "",
                "{\"durationMs\":1000}", "{\"type\":\"crash\"}", "{\"type\":\"crash\",\"durationMs\":-5}",
                "{\"type\":\"crash\",\"durationMs\":1000,\"intensity\":2}",
                "{\"type\":\"crash\",\"durationMs\":1000,\"intensity\":\"high\"}")) {
            client.post().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", ADMIN)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(body).exchange()
                    .expectStatus().isBadRequest()
                    .expectBody()
                    .jsonPath("$.type").isEqualTo("error")
                    .jsonPath("$.error.type").isEqualTo("invalid_request_error");
        }
        client.post().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", ADMIN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"meltdown\",\"durationMs\":1000}").exchange()
                .expectBody().jsonPath("$.error.message").value(m -> assertThat((String) m)
                        .contains("unknown fault type").contains(FaultType.STREAM_CUT.wireName()));
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).isEmpty();
    }

    @Test
    void injectingAndClearingFaultsNeedTheAdminToken() {
        String crash = "{\"type\":\"crash\",\"durationMs\":60000}";
        for (String node : List.of("haiku-l4-0", "no-such-node")) {
            // no token: 401; a non-bearer header: 401; a wrong token: 403 — before the node is even looked up
            client.post().uri("/admin/nodes/" + node + "/faults").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(crash).exchange()
                    .expectStatus().isUnauthorized()
                    .expectBody()
                    .jsonPath("$.type").isEqualTo("error")
                    .jsonPath("$.error.type").isEqualTo("authentication_error");
            client.post().uri("/admin/nodes/" + node + "/faults").header("authorization", "Basic " + TOKEN)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(crash).exchange()
                    .expectStatus().isUnauthorized();
            client.post().uri("/admin/nodes/" + node + "/faults").header("authorization", "Bearer " + TOKEN + "x")
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(crash).exchange()
                    .expectStatus().isForbidden()
                    .expectBody().jsonPath("$.error.type").isEqualTo("permission_error");
            client.delete().uri("/admin/nodes/" + node + "/faults").exchange().expectStatus().isUnauthorized();
            client.delete().uri("/admin/nodes/" + node + "/faults").header("authorization", "Bearer wrong")
                    .exchange().expectStatus().isForbidden();
        }
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).as("nothing injected").isEmpty();

        // the right token: injected (the response names the caller by a token fingerprint, never the token), cleared
        client.post().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", ADMIN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"errors\",\"durationMs\":60000,\"intensity\":0.5}").exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.by").value(by -> assertThat((String) by).startsWith("admin:").doesNotContain(TOKEN));
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).hasSize(1);

        // a fault set stays while a clear is refused
        client.delete().uri("/admin/nodes/haiku-l4-0/faults").exchange().expectStatus().isUnauthorized();
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).hasSize(1);
        client.delete().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", ADMIN).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.cleared.length()").isEqualTo(1);
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).isEmpty();

        // reading stays open
        client.get().uri("/admin/nodes/haiku-l4-0").exchange().expectStatus().isOk();
    }

    @Test
    void withoutAConfiguredTokenTheFaultApiRefusesEveryone() {
        WebTestClient disabled = client(new AdminGuard(""));
        for (String authorization : List.of("Bearer ", "Bearer " + TOKEN, "Bearer anything")) {
            disabled.post().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", authorization)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"type\":\"crash\",\"durationMs\":1000}")
                    .exchange()
                    .expectStatus().isForbidden()
                    .expectBody().jsonPath("$.error.message").value(m -> assertThat((String) m)
                            .contains("no admin token is configured"));
            disabled.delete().uri("/admin/nodes/haiku-l4-0/faults").header("authorization", authorization).exchange()
                    .expectStatus().isForbidden();
        }
        disabled.post().uri("/admin/nodes/haiku-l4-0/faults").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"crash\",\"durationMs\":1000}").exchange().expectStatus().isForbidden();
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).isEmpty();
        disabled.get().uri("/admin/nodes").exchange().expectStatus().isOk();
    }
}
