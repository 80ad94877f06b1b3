package dev.zerolayer.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.cache.KvCacheEvent;
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
 * The admin API over a real two-node fleet: lists nodes with ports, state, load and faults; injects and clears faults;
 * refuses unknown nodes (404), unknown fault types and bad bodies (400) in the error shape.
 */
class NodesControllerTest {

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
        client = WebTestClient.bindToController(new NodesController(fleet)).build();
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
        client.post().uri("/admin/nodes/haiku-l4-1/faults").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"load_spike\",\"durationMs\":60000,\"intensity\":0.5}").exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.node").isEqualTo("haiku-l4-1")
                .jsonPath("$.fault.type").isEqualTo("load_spike")
                .jsonPath("$.fault.intensity").isEqualTo(0.5);
        client.post().uri("/admin/nodes/haiku-l4-1/faults").contentType(MediaType.APPLICATION_JSON)
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

        client.delete().uri("/admin/nodes/haiku-l4-1/faults").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.cleared.length()").isEqualTo(2);
        assertThat(fleet.node("haiku-l4-1").orElseThrow().faults().list()).isEmpty();
        org.awaitility.Awaitility.await().until(() -> fleet.node("haiku-l4-1").orElseThrow().status()
                == NodeStatus.SERVING);
    }

    @Test
    void refusesUnknownNodesUnknownFaultsAndBadBodies() {
        client.post().uri("/admin/nodes/nope/faults").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"crash\",\"durationMs\":1000}").exchange()
                .expectStatus().isNotFound()
                .expectBody()
                .jsonPath("$.type").isEqualTo("error")
                .jsonPath("$.error.type").isEqualTo("not_found_error")
                .jsonPath("$.error.message").value(m -> assertThat((String) m).contains("nope"));
        client.delete().uri("/admin/nodes/nope/faults").exchange().expectStatus().isNotFound();
        client.get().uri("/admin/nodes/nope").exchange().expectStatus().isNotFound();

        for (String body : List.of("{\"type\":\"meltdown\",\"durationMs\":1000}", "{not json", "[]", "",
                "{\"durationMs\":1000}", "{\"type\":\"crash\"}", "{\"type\":\"crash\",\"durationMs\":-5}",
                "{\"type\":\"crash\",\"durationMs\":1000,\"intensity\":2}",
                "{\"type\":\"crash\",\"durationMs\":1000,\"intensity\":\"high\"}")) {
            client.post().uri("/admin/nodes/haiku-l4-0/faults").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(body).exchange()
                    .expectStatus().isBadRequest()
                    .expectBody()
                    .jsonPath("$.type").isEqualTo("error")
                    .jsonPath("$.error.type").isEqualTo("invalid_request_error");
        }
        client.post().uri("/admin/nodes/haiku-l4-0/faults").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"type\":\"meltdown\",\"durationMs\":1000}").exchange()
                .expectBody().jsonPath("$.error.message").value(m -> assertThat((String) m)
                        .contains("unknown fault type").contains(FaultType.STREAM_CUT.wireName()));
        assertThat(fleet.node("haiku-l4-0").orElseThrow().faults().list()).isEmpty();
    }
}
