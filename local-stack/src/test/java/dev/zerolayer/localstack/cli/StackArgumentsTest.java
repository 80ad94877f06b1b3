package dev.zerolayer.localstack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StackArgumentsTest {

    private static final Path CWD = Path.of("/repo");

    @Test
    void defaultsToRouter8080Kafka19092AndDataUnderTheRoot() {
        StackOptions options = StackArguments.parse(List.of(), CWD);

        assertThat(options.fresh()).isFalse();
        assertThat(options.help()).isFalse();
        assertThat(options.skip()).isEmpty();
        assertThat(options.routerPort()).isEqualTo(8080);
        assertThat(options.kafkaPort()).isEqualTo(19092);
        assertThat(options.controllerPort()).isEqualTo(19093);
        assertThat(options.root()).isEqualTo(CWD);
        assertThat(options.dataDir()).isEqualTo(Path.of("/repo/.zerolayer/data"));
        assertThat(options.kafkaDir()).isEqualTo(Path.of("/repo/.zerolayer/data/kafka"));
        assertThat(options.logsDir()).isEqualTo(Path.of("/repo/.zerolayer/data/logs"));
        assertThat(options.replicas()).isEqualTo(1);
        assertThat(options.slowStart()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void readsEveryOptionInBothForms() {
        StackOptions options = StackArguments.parse(List.of("--fresh", "--port", "9090", "--kafka-port=29092",
                "--data-dir", "/tmp/zl", "--root=/src/zerolayer", "--skip", "router-service,cache-service",
                "--skip=node-simulator", "--replicas", "2", "--slow-start", "30"), CWD);

        assertThat(options.fresh()).isTrue();
        assertThat(options.routerPort()).isEqualTo(9090);
        assertThat(options.kafkaPort()).isEqualTo(29092);
        assertThat(options.controllerPort()).isEqualTo(29093);
        assertThat(options.dataDir()).isEqualTo(Path.of("/tmp/zl"));
        assertThat(options.root()).isEqualTo(Path.of("/src/zerolayer"));
        assertThat(options.skip()).containsExactlyInAnyOrder("router-service", "cache-service", "node-simulator");
        assertThat(options.replicas()).isEqualTo(2);
        assertThat(StackArguments.parse(List.of("--replicas=3"), CWD).replicas()).isEqualTo(3);
        assertThat(options.slowStart()).isEqualTo(Duration.ofSeconds(30));
        assertThat(StackArguments.parse(List.of("--slow-start=0"), CWD).slowStart()).isZero();
    }

    @Test
    void aTokenizerDirectoryResolvesAgainstTheWorkingDirectoryAndAUrlStaysAsGiven() {
        assertThat(StackArguments.parse(List.of(), CWD).tokenizer()).isNull();
        assertThat(StackArguments.parse(List.of("--tokenizer", "../shared/qwen3"), CWD).tokenizer())
                .isEqualTo(Path.of("/shared/qwen3").toString());
        assertThat(StackArguments.parse(List.of("--tokenizer=https://models.example/qwen3/"), CWD).tokenizer())
                .isEqualTo("https://models.example/qwen3/");
    }

    @Test
    void defaultDataDirFollowsTheRootAndRelativePathsResolveAgainstTheWorkingDirectory() {
        assertThat(StackArguments.parse(List.of("--root", "/src/zl"), CWD).dataDir())
                .isEqualTo(Path.of("/src/zl/.zerolayer/data"));
        StackOptions relative = StackArguments.parse(List.of("--root", "../zl", "--data-dir", "d/../data"), CWD);
        assertThat(relative.root()).isEqualTo(Path.of("/zl"));
        assertThat(relative.dataDir()).isEqualTo(Path.of("/repo/data"));
    }

    @Test
    void helpIsAFlag() {
        assertThat(StackArguments.parse(List.of("--help"), CWD).help()).isTrue();
        assertThat(StackArguments.parse(List.of("-h"), CWD).help()).isTrue();
    }

    @Test
    void rejectsUnknownOptionsMissingValuesAndBadPorts() {
        assertThatThrownBy(() -> StackArguments.parse(List.of("--verbose"), CWD))
                .isInstanceOf(UsageException.class).hasMessage("unknown option --verbose");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--port"), CWD))
                .isInstanceOf(UsageException.class).hasMessage("--port needs a value");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--data-dir", "--fresh"), CWD))
                .isInstanceOf(UsageException.class).hasMessage("--data-dir needs a value");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--port", "http"), CWD))
                .isInstanceOf(UsageException.class).hasMessageContaining("'http'");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--port", "0"), CWD))
                .isInstanceOf(UsageException.class).hasMessageContaining("between 1 and 65535");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--kafka-port", "65535"), CWD))
                .isInstanceOf(UsageException.class).hasMessageContaining("between 1 and 65534");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--skip", ","), CWD))
                .isInstanceOf(UsageException.class).hasMessage("--skip needs a value");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--replicas", "4"), CWD))
                .isInstanceOf(UsageException.class).hasMessage("--replicas must be between 1 and 3, got '4'");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--replicas=two"), CWD))
                .isInstanceOf(UsageException.class).hasMessageContaining("'two'");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--slow-start", "-5"), CWD))
                .isInstanceOf(UsageException.class)
                .hasMessage("--slow-start must be a number of seconds between 0 and 3600, got '-5'");
        assertThatThrownBy(() -> StackArguments.parse(List.of("--fresh=yes"), CWD))
                .isInstanceOf(UsageException.class).hasMessage("--fresh takes no value");
    }
}
