package dev.zerolayer.contracts.codec;

import static dev.zerolayer.contracts.testing.RecordValues.different;
import static dev.zerolayer.contracts.testing.RecordValues.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.EventChecks;
import dev.zerolayer.contracts.fallback.Thresholds;
import dev.zerolayer.contracts.router.RoutingDecision;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The wide records' builders: each named setter sets its own component and no other (no swapped tier and cluster),
 * {@code toBuilder()} copies every component, and the defaults stay SPEC's; components are enumerated by reflection, so
 * one added later without a setter fails here.
 */
class RecordBuildersTest {

    @Test
    void eachRoutingDecisionSetterSetsItsOwnComponentOnly() {
        RoutingDecision sample = (RoutingDecision) SampleEvents.all().get("routing-decision");
        // the schema version has one valid value; a fresh event id stays a valid id
        assertEachSetterSetsItsComponent(sample, RoutingDecision::toBuilder, Set.of("schemaVersion"),
                (name, current) -> name.equals("eventId") ? EventChecks.newEventId() : null);
        assertThat(sample.toBuilder().build()).isEqualTo(sample);
        assertThat(RoutingDecision.builder().eventId("e").occurredAt(sample.occurredAt()).requestId("r")
                .clientApi("openai").status(sample.status()).build().schemaVersion())
                .isEqualTo(RoutingDecision.SCHEMA_VERSION);
    }

    @Test
    void eachThresholdsSetterSetsItsOwnComponentOnlyAndTheBuilderStartsFromSpec() {
        Thresholds defaults = Thresholds.defaults();
        assertEachSetterSetsItsComponent(defaults, Thresholds::toBuilder, Set.of(), (name, current) -> null);
        assertThat(defaults.toBuilder().build()).isEqualTo(defaults);
        assertThat(Thresholds.builder().build()).isEqualTo(defaults);
        assertThat(defaults.clusterHealthMin()).isEqualTo(0.70);
        assertThat(defaults.highComplexity()).isEqualTo(0.95);
        assertThat(defaults.cacheHitBlockShare()).isEqualTo(0.5);
    }

    /** A value for a component where the generic one would be invalid; null takes the generic one. */
    private interface Special {
        Object valueFor(String component, Object current);
    }

    private static <R extends Record, B> void assertEachSetterSetsItsComponent(R sample, Function<R, B> toBuilder,
            Set<String> skipped, Special special) {
        for (RecordComponent component : sample.getClass().getRecordComponents()) {
            if (skipped.contains(component.getName())) {
                continue;
            }
            // Given the sample's builder and a value other than the sample's for this component
            Object current = read(component, sample);
            Object value = special.valueFor(component.getName(), current);
            value = value != null ? value : different(component.getGenericType(), current);
            B builder = toBuilder.apply(sample);

            // When the setter of that name is called and the record built
            Object built;
            try {
                Method setter = builder.getClass().getMethod(component.getName(), component.getType());
                setter.invoke(builder, value);
                built = builder.getClass().getMethod("build").invoke(builder);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("no working setter " + component.getName() + " on "
                        + builder.getClass().getName(), e);
            }

            // Then that component has the value and every other one is the sample's
            for (RecordComponent other : sample.getClass().getRecordComponents()) {
                assertThat(read(other, built)).as("%s after setting %s", other.getName(), component.getName())
                        .isEqualTo(other.getName().equals(component.getName()) ? value : read(other, sample));
            }
        }
    }
}
