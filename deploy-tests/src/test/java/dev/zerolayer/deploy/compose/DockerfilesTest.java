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
 * Each service's Dockerfile: built from its module with the wrapper, extracted into Spring Boot layers, run on a JRE
 * as a non-root user with container-sized heap, exposing and health-checking the port its configuration uses.
 */
class DockerfilesTest {

    @Test
    void everyImageIsLayeredNonRootHealthCheckedAndSizedForContainers() {
        for (ServiceConfig config : ServiceConfig.all().values()) {
            String module = config.module();
            String text = Repo.read("docker/" + module + ".Dockerfile");
            List<String> stages = Arrays.asList(text.split("(?m)^FROM "));
            String runtime = stages.get(stages.size() - 1);

            // build with the wrapper from the module; the jar name is the module's finalName
            assertThat(text).as(module).contains("./mvnw -B -q -pl " + module + " -am package")
                    .contains("cp " + module + "/target/" + module + ".jar /application.jar");
            assertThat(Repo.read(module + "/pom.xml")).contains("<finalName>${project.artifactId}</finalName>");
            // layered jar
            assertThat(text).contains("java -Djarmode=tools -jar application.jar extract --layers");
            for (String layer : List.of("dependencies", "spring-boot-loader", "snapshot-dependencies", "application")) {
                assertThat(runtime).contains("COPY --from=extract /extract/layers/" + layer + "/ ./");
            }
            // JRE base, non-root numeric user
            assertThat(runtime).startsWith("eclipse-temurin:17-jre");
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
        assertThat(Repo.read(".dockerignore")).contains("**/target/");
    }
}
