# router-service image: Anthropic/OpenAI-compatible gateway: per-request routing decision, dispatch, decision stream
#
# Build from the repository root (BuildKit: the default builder since Docker 23; DOCKER_BUILDKIT=1 before that):
#   docker build -f docker/router-service.Dockerfile -t zerolayer/router-service .
# From the jar the host built (./mvnw -pl router-service -am package -DskipTests): no Maven and no network in the build
#   docker build -f docker/router-service.Dockerfile --build-arg JAR_SOURCE=host -t zerolayer/router-service .
# Base images are arguments, for a mirror or a local image: --build-arg BUILD_IMAGE=… --build-arg RUNTIME_IMAGE=…
# The context is filtered by docker/router-service.Dockerfile.dockerignore: sources, plus this service's jar only.
ARG BUILD_IMAGE=eclipse-temurin:17-jdk
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre
ARG JAR_SOURCE=source

# --- jar from source: the module and what it needs, with the Maven wrapper (tests run in CI, not here) ---
FROM ${BUILD_IMAGE} AS jar-source
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -pl router-service -am package -DskipTests \
 && cp router-service/target/router-service.jar /application.jar

# --- jar from the host: the one ./mvnw package left in router-service/target ---
FROM scratch AS jar-host
COPY router-service/target/router-service.jar /application.jar

# --- the jar chosen by JAR_SOURCE (BuildKit builds only the stage it needs) ---
FROM jar-${JAR_SOURCE} AS jar

# --- extract: Spring Boot's layered layout (dependencies change less often than the application) ---
FROM ${RUNTIME_IMAGE} AS extract
WORKDIR /extract
COPY --from=jar /application.jar application.jar
RUN java -Djarmode=tools -jar application.jar extract --layers --destination layers

# --- runtime: JRE only, non-root ---
FROM ${RUNTIME_IMAGE}
LABEL org.opencontainers.image.title="zerolayer-router-service" \
      org.opencontainers.image.description="ZeroLayer router-service: Anthropic/OpenAI-compatible gateway: per-request routing decision, dispatch, decision stream"
RUN groupadd --system --gid 10001 zerolayer \
 && useradd --system --uid 10001 --gid zerolayer --home-dir /application --shell /usr/sbin/nologin zerolayer
WORKDIR /application
COPY --from=extract /extract/layers/dependencies/ ./
COPY --from=extract /extract/layers/spring-boot-loader/ ./
COPY --from=extract /extract/layers/snapshot-dependencies/ ./
COPY --from=extract /extract/layers/application/ ./
COPY --chmod=0755 docker/healthcheck.sh /usr/local/bin/zl-healthcheck
# Heap sized from the container's memory limit; a served model's tokenizer library is unpacked under /tmp/djl; exit (and get restarted) rather than limp on after an OOM.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75.0 -XX:InitialRAMPercentage=50.0 -XX:+ExitOnOutOfMemoryError" \
    ROUTER_PORT=8080 \
    DJL_CACHE_DIR=/tmp/djl
USER 10001:10001
EXPOSE 8080
# Ready once its views are loaded and its warm-up (at most 60 s of synthetic requests through its own port) is done.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
    CMD zl-healthcheck "${ROUTER_PORT:-8080}" /actuator/health/readiness
ENTRYPOINT ["java", "-jar", "application.jar"]
