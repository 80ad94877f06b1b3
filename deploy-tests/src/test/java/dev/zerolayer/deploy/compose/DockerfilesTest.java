package dev.zerolayer.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.deploy.repo.Repo;
import dev.zerolayer.deploy.repo.ServiceConfig;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each service's Dockerfile: its jar built from the module with the wrapper or taken from the host, extracted into
 * Spring Boot layers, run on a JRE (base images as build arguments) as a non-root user with container-sized heap,
 * exposing and health-checking the port its configuration uses; its own ignore file lets exactly its jar through.
 */
class DockerfilesTest {

    @Test
    void everyImageIsLayeredNonRootHealthCheckedAndSizedForContainers() {
        for (ServiceConfig config : ServiceConfig.all().values()) {
            String module = config.module();
            String text = Repo.read("docker/" + module + ".Dockerfile");
            List<String> stages = Arrays.asList(text.split("(?m)^FROM "));
            String runtime = stages.get(stages.size() - 1);

            // no BuildKit frontend to pull; base images are arguments defaulting to the public ones
            assertThat(text).as(module).doesNotContainPattern("(?m)^# *syntax=")
                    .containsPattern("(?m)^ARG BUILD_IMAGE=eclipse-temurin:17-jdk$")
                    .containsPattern("(?m)^ARG RUNTIME_IMAGE=eclipse-temurin:17-jre$")
                    .containsPattern("(?m)^ARG JAR_SOURCE=source$")
                    .containsPattern("(?m)^FROM jar-\\$\\{JAR_SOURCE} AS jar$");
            // the jar: built with the wrapper from the module (its name is the module's finalName) or the host's
            assertThat(stage(stages, "jar-source")).startsWith("${BUILD_IMAGE} AS jar-source")
                    .contains("./mvnw -B -q -pl " + module + " -am package")
                    .contains("cp " + module + "/target/" + module + ".jar /application.jar");
            assertThat(stage(stages, "jar-host")).startsWith("scratch AS jar-host")
                    .contains("COPY " + module + "/target/" + module + ".jar /application.jar")
                    .doesNotContain("RUN ");
            // the host's jar reaches the build through this Dockerfile's own ignore file, and nothing else built does
            List<String> ignore = Repo.read("docker/" + module + ".Dockerfile.dockerignore").lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            assertThat(ignore).as(module).contains("**/target/", "!" + module + "/target/" + module + ".jar",
                    "**/node_modules/");
            assertThat(ignore.stream().filter(l -> l.startsWith("!"))).hasSize(1);
            assertThat(ignore).containsAll(Repo.read(".dockerignore").lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList());
            assertThat(Repo.read(module + "/pom.xml")).contains("<finalName>${project.artifactId}</finalName>");
            // layered jar
            assertThat(text).contains("java -Djarmode=tools -jar application.jar extract --layers");
            for (String layer : List.of("dependencies", "spring-boot-loader", "snapshot-dependencies", "application")) {
                assertThat(runtime).contains("COPY --from=extract /extract/layers/" + layer + "/ ./");
            }
            // JRE base, non-root numeric user
            assertThat(runtime).startsWith("${RUNTIME_IMAGE}\n");
            Matcher user = Pattern.compile("(?m)^USER (\\d+)(?::(\\d+))?$").matcher(runtime);
            assertThat(user.find()).as(module + " USER").isTrue();
            assertThat(Integer.parseInt(user.group(1))).isPositive();
            // container-aware heap
            assertThat(runtime).contains("-XX:MaxRAMPercentage=").contains("-XX:+ExitOnOutOfMemoryError");
            // port: the variable the application reads, set to its default, exposed, and health-checked
            assertThat(runtime).contains(config.portVariable() + "=" + config.defaultPort());
            assertThat(runtime).containsPattern("(?m)^EXPOSE " + config.defaultPort() + "\\b");
            assertThat(runtime).contains("CMD zl-healthcheck \"${" + config.portVariable() + ":-"
                    + config.defaultPort() + "}\" /actuator/health/readiness");
            assertThat(runtime).containsPattern("(?m)^HEALTHCHECK ");
            assertThat(runtime).contains("ENTRYPOINT [\"java\", \"-jar\", \"application.jar\"]");
        }
        String check = Repo.read("docker/healthcheck.sh");
        assertThat(check).startsWith("#!/bin/bash").contains("/dev/tcp/127.0.0.1/").contains(" 200");
        assertThat(Repo.read(".dockerignore")).contains("**/target/").contains("**/node_modules/");
    }

    private static String stage(List<String> stages, String name) {
        return stages.stream().filter(s -> s.lines().findFirst().orElse("").endsWith(" AS " + name)).findFirst()
                .orElseThrow(() -> new AssertionError("no stage " + name));
    }
}
