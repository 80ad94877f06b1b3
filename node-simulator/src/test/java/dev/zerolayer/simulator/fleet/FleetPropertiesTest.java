package dev.zerolayer.simulator.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.simulator.node.NodeSpec;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/**
 * The default fleet of application.yml is the seed's topology on about eight nodes, named as the default fallback
 * policy names its tiers, clusters and standby; fleet options resolve into node specs.
 */
class FleetPropertiesTest {

    static FleetProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bind("zerolayer.simulator",
                FleetProperties.class).get();
    }

    @Test
    void theDefaultFleetMatchesTheDefaultPolicy() throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        for (PropertySource<?> source : new YamlPropertySourceLoader().load("application",
                new ClassPathResource("application.yml"))) {
            environment.getPropertySources().addLast(source);
        }
        FleetProperties properties = Binder.get(environment).bind("zerolayer.simulator", FleetProperties.class).get();

        List<NodeSpec> nodes = Fleet.specs(properties);

        assertThat(nodes).extracting(NodeSpec::id).containsExactly("opus-a100-80g-0", "opus-a100-80g-1",
                "sonnet-a100-40g-0", "sonnet-a100-40g-1", "sonnet-standby-0", "haiku-l4-0", "haiku-l4-1", "haiku-l4-2");
        assertThat(nodes).extracting(NodeSpec::port).containsExactly(18100, 18101, 18102, 18103, 18104, 18105, 18106,
                18107);
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.bindHost()).isEqualTo("127.0.0.1");
            assertThat(node.latency()).isTrue();
        });
        assertThat(nodes).filteredOn(n -> n.protocol() == UpstreamProtocol.OPENAI).extracting(NodeSpec::id)
                .containsExactly("haiku-l4-2");
        assertThat(nodes).filteredOn(n -> n.standbyOf() != null).singleElement().satisfies(standby -> {
            assertThat(standby.cluster()).isEqualTo("sonnet-standby");
            assertThat(standby.standbyOf()).isEqualTo("sonnet-a100-40g");
            assertThat(standby.tier()).isEqualTo("sonnet");
        });
        assertThat(nodes).extracting(n -> n.profile().name()).containsExactly("A100-80Gx8", "A100-80Gx8",
                "A100-40Gx4", "A100-40Gx4", "A100-40Gx4", "L4x2", "L4x2", "L4x2");
        assertThat(nodes).extracting(NodeSpec::seed).doesNotHaveDuplicates();

        PolicyDocument policy = PolicyDocument.defaults();
        Set<String> policyClusters = new HashSet<>();
        for (TierSpec tier : policy.tiers()) {
            policyClusters.addAll(tier.clusters());
            assertThat(nodes).filteredOn(n -> tier.clusters().contains(n.cluster()))
                    .isNotEmpty().allSatisfy(n -> assertThat(n.tier()).isEqualTo(tier.name()));
        }
        policyClusters.addAll(policy.standbyClusters().values());
        assertThat(nodes).allSatisfy(n -> assertThat(policyClusters).contains(n.cluster()));
        assertThat(policy.standbyClusters()).containsEntry("sonnet-a100-40g", "sonnet-standby");
        assertThat(properties.sampleInterval()).hasMillis(100);
        assertThat(properties.registrationInterval()).hasSeconds(10);
        assertThat(properties.maxBodySize().toMegabytes()).isEqualTo(10);
    }

    @Test
    void clusterOptionsResolveIntoNodeSpecs() {
        FleetProperties properties = bind(Map.ofEntries(
                Map.entry("zerolayer.simulator.base-port", "0"),
                Map.entry("zerolayer.simulator.latency", "false"),
                Map.entry("zerolayer.simulator.latency-overrides.c-1", "true"),
                Map.entry("zerolayer.simulator.clusters[0].name", "c"),
                Map.entry("zerolayer.simulator.clusters[0].tier", "haiku"),
                Map.entry("zerolayer.simulator.clusters[0].nodes", "2"),
                Map.entry("zerolayer.simulator.clusters[0].profile", "L4×2"),
                Map.entry("zerolayer.simulator.clusters[0].protocol", "openai"),
                Map.entry("zerolayer.simulator.clusters[0].capacity", "3"),
                Map.entry("zerolayer.simulator.clusters[0].kv-blocks", "50"),
                Map.entry("zerolayer.simulator.clusters[1].name", "d"),
                Map.entry("zerolayer.simulator.clusters[1].tier", "opus"),
                Map.entry("zerolayer.simulator.clusters[1].profile", "A100-80Gx8"),
                Map.entry("zerolayer.simulator.clusters[1].base-port", "19000"),
                Map.entry("zerolayer.simulator.clusters[1].model", "my-model")));

        List<NodeSpec> nodes = Fleet.specs(properties);

        assertThat(nodes).extracting(NodeSpec::port).containsExactly(0, 0, 19000);
        assertThat(nodes).extracting(NodeSpec::latency).containsExactly(false, true, false);
        assertThat(nodes.get(0).protocol()).isEqualTo(UpstreamProtocol.OPENAI);
        assertThat(nodes.get(0).profile().capacity()).isEqualTo(3);
        assertThat(nodes.get(0).profile().kvBlocks()).isEqualTo(50);
        assertThat(nodes.get(2).model()).isEqualTo("my-model");
        assertThat(Fleet.specs(properties)).extracting(NodeSpec::seed)
                .containsExactlyElementsOf(nodes.stream().map(NodeSpec::seed).toList());
    }

    @Test
    void unknownProfilesAndProtocolsAreRefused() {
        assertThatThrownBy(() -> Fleet.specs(bind(Map.of(
                "zerolayer.simulator.clusters[0].name", "c",
                "zerolayer.simulator.clusters[0].tier", "haiku",
                "zerolayer.simulator.clusters[0].profile", "TPUv5")))).hasMessageContaining("unknown hardware profile");
        assertThatThrownBy(() -> Fleet.specs(bind(Map.of(
                "zerolayer.simulator.clusters[0].name", "c",
                "zerolayer.simulator.clusters[0].tier", "haiku",
                "zerolayer.simulator.clusters[0].profile", "L4x2",
                "zerolayer.simulator.clusters[0].protocol", "grpc")))).hasMessageContaining("anthropic or openai");
    }
}
