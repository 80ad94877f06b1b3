# syntax=docker/dockerfile:1
# cache-service image: KV-cache registry, sessions and prewarm
# Build from the repository root:  docker build -f docker/cache-service.Dockerfile -t zerolayer/cache-service .

# --- build: the module and what it needs, with the Maven wrapper (tests run in CI, not here) ---
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -pl cache-service -am package -DskipTests \
 && cp cache-service/target/cache-service.jar /application.jar

# --- extract: Spring Boot's layered layout (dependencies change less often than the application) ---
FROM eclipse-temurin:17-jre AS extract
WORKDIR /extract
COPY --from=build /application.jar application.jar
RUN java -Djarmode=tools -jar application.jar extract --layers --destination layers

# --- runtime: JRE only, non-root ---
FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="zerolayer-cache-service" \
      org.opencontainers.image.description="ZeroLayer cache-service: KV-cache registry, sessions and prewarm"
RUN groupadd --system --gid 10001 zerolayer \
 && useradd --system --uid 10001 --gid zerolayer --home-dir /application --shell /usr/sbin/nologin zerolayer
WORKDIR /application
COPY --from=extract /extract/layers/dependencies/ ./
COPY --from=extract /extract/layers/spring-boot-loader/ ./
COPY --from=extract /extract/layers/snapshot-dependencies/ ./
COPY --from=extract /extract/layers/application/ ./
COPY --chmod=0755 docker/healthcheck.sh /usr/local/bin/zl-healthcheck
# Heap sized from the container's memory limit; exit (and get restarted) rather than limp on after an OOM.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75.0 -XX:InitialRAMPercentage=50.0 -XX:+ExitOnOutOfMemoryError" \
    CACHE_PORT=18083
USER 10001:10001
EXPOSE 18083
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD zl-healthcheck "${CACHE_PORT:-18083}" /actuator/health/readiness
ENTRYPOINT ["java", "-jar", "application.jar"]
