package dev.zerolayer.contracts.fallback;

import static dev.zerolayer.contracts.testing.RecordValues.allNull;
import static dev.zerolayer.contracts.testing.RecordValues.different;
import static dev.zerolayer.contracts.testing.RecordValues.read;
import static dev.zerolayer.contracts.testing.RecordValues.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-key merge keeps every field of the policy and of its parts that the override does not set, and an override
 * field that is set wins; the fields are enumerated by reflection, so a field added to any of these records later is
 * covered without being named here.
 */
class PolicyOverrideMergeTest {

    private static final String KEY = "key-under-test";

    /** A policy in which every field, nested ones included, differs from the defaults (so a dropped one shows). */
    private static final PolicyDocument BASE = (PolicyDocument) different(PolicyDocument.class,
            PolicyDocument.defaults());

    @Test
    void theBasePolicyDiffersFromTheDefaultsInEveryField() {
        PolicyDocument defaults = PolicyDocument.defaults();
        for (RecordComponent field : PolicyDocument.class.getRecordComponents()) {
            assertThat(read(field, BASE)).as(field.getName()).isNotEqualTo(read(field, defaults));
        }
    }

    @Test
    void anOverrideThatSetsOneFieldChangesThatFieldAndKeepsEveryOther() {
        List<String> merged = new ArrayList<>();
        for (RecordComponent field : PolicyOverride.class.getRecordComponents()) {
            if (PolicyOverride.NOT_MERGED.contains(field.getName())) {
                continue;
            }
            // Given an override that sets only this field, to a value other than the policy's
            Object policyValue = policyValueNamed(BASE, field.getName());
            Object value = different(field.getGenericType(), policyValue);
            PolicyOverride override = with(emptyOverride(), field.getName(), value);
            PolicyDocument policy = with(BASE, "apiKeyOverrides", Map.of(KEY, override));

            // When the key's view of the policy is taken
            PolicyDocument forKey = policy.forApiKey(KEY);

            // Then each field of the policy is the policy's, except the one the override names
            assertThat(override.changesRouting()).as(field.getName()).isTrue();
            for (RecordComponent documentField : PolicyDocument.class.getRecordComponents()) {
                Object expected = expected(policy, documentField, field.getName(), value);
                assertThat(read(documentField, forKey))
                        .as("PolicyDocument.%s after an override of %s", documentField.getName(), field.getName())
                        .isEqualTo(expected);
            }
            merged.add(field.getName());
        }
        assertThat(merged).as("override fields merged").isNotEmpty()
                .containsAll(List.of("thresholds", "limits", "hopLimit", "scoring"));
    }

    @Test
    void anOverrideThatSetsNothingTheMergeReadsLeavesThePolicyAsItIs() {
        // Given an override setting only fields read elsewhere (the request rate)
        PolicyOverride override = emptyOverride();
        for (String name : PolicyOverride.NOT_MERGED) {
            RecordComponent field = componentNamed(PolicyOverride.class, name);
            override = with(override, name, different(field.getGenericType(), null));
        }
        PolicyDocument policy = with(BASE, "apiKeyOverrides", Map.of(KEY, override));

        // Then it changes no routing, and the key sees the policy itself
        assertThat(override.changesRouting()).isFalse();
        assertThat(policy.forApiKey(KEY)).isSameAs(policy);
    }

    @Test
    void anOverrideSettingEveryFieldAtOnceChangesAllTheirPlacesAndKeepsTheRest() {
        // Given an override in which every field is set
        PolicyOverride override = (PolicyOverride) different(PolicyOverride.class, null);
        PolicyDocument policy = with(BASE, "apiKeyOverrides", Map.of(KEY, override));

        // When the key's view is taken
        PolicyDocument forKey = policy.forApiKey(KEY);

        // Then every place an override field names holds its value, every other place the policy's
        PolicyDocument expected = policy;
        for (RecordComponent field : PolicyOverride.class.getRecordComponents()) {
            if (!PolicyOverride.NOT_MERGED.contains(field.getName())) {
                expected = applied(expected, field.getName(), read(field, override));
            }
        }
        assertThat(forKey).isEqualTo(expected);
        assertThat(forKey.resilience().breakerCooldownMs()).isEqualTo(BASE.resilience().breakerCooldownMs());
        assertThat(forKey.standbyClusters()).isEqualTo(BASE.standbyClusters());
    }

    /** The policy with one override field applied by hand: same-named field, or that field of one policy part. */
    private static PolicyDocument applied(PolicyDocument policy, String name, Object value) {
        for (RecordComponent documentField : PolicyDocument.class.getRecordComponents()) {
            policy = with(policy, documentField.getName(), expected(policy, documentField, name, value));
        }
        return policy;
    }

    /** What a policy field holds after an override of {@code name} with {@code value}. */
    private static Object expected(PolicyDocument policy, RecordComponent documentField, String name, Object value) {
        Object current = read(documentField, policy);
        if (documentField.getName().equals(name)) {
            if (PolicyOverride.MERGED_BY_KEY.contains(name)) {
                Map<Object, Object> overlaid = new LinkedHashMap<>((Map<?, ?>) current);
                overlaid.putAll((Map<?, ?>) value);
                // the value drops one of the policy's keys, which must survive the overlay
                assertThat(overlaid.keySet()).containsAll(((Map<?, ?>) current).keySet());
                return overlaid;
            }
            return value;
        }
        if (current instanceof Record part && hasComponent(part.getClass(), name)) {
            return with(part, name, value);
        }
        return current;
    }

    /** The policy's field of that name, or that field of the one policy part that has it. */
    private static Object policyValueNamed(PolicyDocument policy, String name) {
        List<Object> found = new ArrayList<>();
        for (RecordComponent documentField : PolicyDocument.class.getRecordComponents()) {
            Object value = read(documentField, policy);
            if (documentField.getName().equals(name)) {
                found.add(value);
            } else if (value instanceof Record part && hasComponent(part.getClass(), name)) {
                found.add(read(componentNamed(part.getClass(), name), part));
            }
        }
        assertThat(found).as("places in the policy for override field " + name).hasSize(1);
        return found.get(0);
    }

    private static PolicyOverride emptyOverride() {
        return allNull(PolicyOverride.class);
    }

    private static boolean hasComponent(Class<?> type, String name) {
        for (RecordComponent component : type.getRecordComponents()) {
            if (component.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static RecordComponent componentNamed(Class<?> type, String name) {
        for (RecordComponent component : type.getRecordComponents()) {
            if (component.getName().equals(name)) {
                return component;
            }
        }
        throw new AssertionError(type.getSimpleName() + " has no " + name);
    }
}
