package dev.zerolayer.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunArgumentsTest {

    @Test
    void takesNameValuePairsAndTheRunnersFlags() {
        RunArguments parsed = RunArguments.parse(new String[] {"--stack", "--rate", "1000", "--out", "x.md"},
                Set.of("stack"));

        assertThat(parsed.has("stack")).isTrue();
        assertThat(parsed.options()).isEqualTo(Map.of("rate", "1000", "out", "x.md"));
    }

    @Test
    void refusesABareWordAnUnknownFlagAndANameWithoutValue() {
        assertThatThrownBy(() -> RunArguments.parse(new String[] {"stray"}, Set.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown argument stray");
        assertThatThrownBy(() -> RunArguments.parse(new String[] {"--rate"}, Set.of("stack")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown argument --rate");
        // without the flag known, --stack takes the next argument as its value
        assertThat(RunArguments.parse(new String[] {"--stack", "--rate"}, Set.of()).options())
                .isEqualTo(Map.of("stack", "--rate"));
    }
}
