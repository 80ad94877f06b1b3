package dev.zerolayer.router.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.TierSpec;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.router.models.ModelCatalogue.ServedModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.support.MessageBuilder;

/** The catalogue lists the built-in policy's aliases until a policy arrives, then the latest policy's, each once. */
class ModelCatalogueTest {

    private final CompactedView<FallbackPolicy> view = new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, new EventReader(new SimpleMeterRegistry()), Clock.systemUTC());
    private final ModelCatalogue catalogue = new ModelCatalogue(view);

    @Test
    void listsTheBuiltInTiersAndAliasesUntilAPolicyArrives() {
        // Given no policy read yet
        // Then every alias of the built-in policy is listed with its tier, in order
        List<ServedModel> models = catalogue.models();
        List<String> expected = PolicyDocument.defaults().tiers().stream()
                .flatMap(tier -> tier.modelAliases().stream()).toList();
        assertThat(models).extracting(ServedModel::id).containsExactlyElementsOf(expected);
        assertThat(models.get(0)).isEqualTo(
                new ServedModel("claude-haiku-4-5", "Haiku tier (claude-haiku-4-5)", "haiku", Instant.EPOCH));
        assertThat(models).filteredOn(m -> m.id().equals("opus")).extracting(ServedModel::tier).containsExactly("opus");
    }

    @Test
    void followsTheLatestPolicyListingEachAliasOnceAndSkippingNamelessTiers() {
        // Given a policy with a new tier, an alias shared by two tiers, and a tier without a name
        Instant at = Instant.parse("2026-11-29T12:00:00Z");
        PolicyDocument document = new PolicyDocument(List.of(
                new TierSpec("mini", List.of("mini-1", "shared"), List.of("c1")),
                new TierSpec("maxi", List.of("shared", "maxi-1", " "), List.of("c2")),
                new TierSpec(null, List.of("orphan"), List.of("c3"))), null, null, null, null, null, null, null);
        FallbackPolicy policy = new FallbackPolicy("e1", at, 1, 7, "admin", document);
        view.accept(MessageBuilder.withPayload(EventCodec.encode(policy))
                .setHeader(KafkaHeaders.RECEIVED_KEY, FallbackPolicy.KEY.getBytes(StandardCharsets.UTF_8))
                .setHeader(KafkaHeaders.RECEIVED_TOPIC, Topics.FALLBACK_POLICY).build());

        // Then the catalogue follows it
        assertThat(catalogue.models()).containsExactly(
                new ServedModel("mini-1", "Mini tier (mini-1)", "mini", at),
                new ServedModel("shared", "Mini tier (shared)", "mini", at),
                new ServedModel("maxi-1", "Maxi tier (maxi-1)", "maxi", at));
    }
}
