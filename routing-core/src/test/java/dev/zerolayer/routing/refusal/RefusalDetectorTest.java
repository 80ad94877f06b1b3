package dev.zerolayer.routing.refusal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RefusalDetectorTest {

    @Test
    void upstreamSignalsAreRefusalsWhateverTheText() {
        assertThat(RefusalDetector.isRefusal("refusal", null, "Here is the answer")).isTrue();
        assertThat(RefusalDetector.isRefusal("stop", "I can't do that.", null)).isTrue();
    }

    @Test
    void shortDecliningAnswersInEnglishAndChineseAreRefusals() {
        assertThat(RefusalDetector.isRefusal("end_turn", null, "I’m sorry, but I can’t help with that request.")).isTrue();
        assertThat(RefusalDetector.isRefusal("stop", null, "  I am unable to provide legal advice.")).isTrue();
        assertThat(RefusalDetector.isRefusal("end_turn", null, "抱歉，我无法回答这个问题。")).isTrue();
    }

    @Test
    void ordinaryAndLongAnswersAreNot() {
        assertThat(RefusalDetector.isRefusal("end_turn", null, "Paris is the capital of France.")).isFalse();
        assertThat(RefusalDetector.isRefusal("end_turn", "", "")).isFalse();
        assertThat(RefusalDetector.isRefusal("max_tokens", null, null)).isFalse();
        String longAnswer = "I'm unable to run code, but here is how the algorithm works. " + "Step. ".repeat(200);
        assertThat(RefusalDetector.isRefusal("end_turn", null, longAnswer)).isFalse();
    }
}
