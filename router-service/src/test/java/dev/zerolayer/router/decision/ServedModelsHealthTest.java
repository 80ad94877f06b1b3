package dev.zerolayer.router.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A tokenizer location is shown without what may carry credentials. */
class ServedModelsHealthTest {

    @Test
    void aUrlIsShownWithoutUserInformationAndQueryAndAPathAsItIs() {
        assertThat(ServedModelsHealth.shown("https://bob:secret@models.example:8443/qwen3/?token=abc"))
                .isEqualTo("https://models.example:8443/qwen3/");
        assertThat(ServedModelsHealth.shown("/srv/models/qwen3")).isEqualTo("/srv/models/qwen3");
        assertThat(ServedModelsHealth.shown("C:\\models\\qwen")).isEqualTo("C:\\models\\qwen");
    }
}
