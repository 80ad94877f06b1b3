package dev.zerolayer.platform.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings every ZeroLayer service shares ({@code zerolayer.*}): the service's name in the topic catalogue, topic
 * provisioning, and the credentials read from {@code ZEROLAYER_API_KEYS} and {@code ZEROLAYER_ADMIN_TOKEN}.
 *
 * @param service            this service's name in the topic catalogue (writer/reader names)
 * @param provisionTopics    create missing topics at start (otherwise only verify them)
 * @param replicationFactor  replication factor of topics this service creates
 * @param brokerRetryBackoff longest wait between attempts to reach the broker at start
 * @param apiKeys            comma-separated client API keys (empty: local traffic only)
 * @param adminToken         token for mutating admin endpoints (empty: admin endpoints refuse everyone)
 * @param parentPid          when set, the service exits once that process is gone (local-stack children)
 * @param replicaId          this replica's name on the records it writes (empty: host name and pid)
 * @param leaderSessionTimeout how long a leader that died holds its term before another replica takes over (at least
 *                           the broker's {@code group.min.session.timeout.ms}, 6 s by default)
 * @param advertisedUrl      this replica's base URL for its peers (a leader's followers pass it admin writes); empty:
 *                           {@code http://<this host's address>:<server port>}
 * @param leaderForwardTimeout how long a follower waits for the leader's answer to a write it passed on
 */
@Validated
@ConfigurationProperties("zerolayer")
public record ZeroLayerProperties(
        @NotBlank String service,
        @DefaultValue("true") boolean provisionTopics,
        @DefaultValue("1") @Min(1) @Max(5) short replicationFactor,
        @DefaultValue("5s") Duration brokerRetryBackoff,
        @DefaultValue("") String apiKeys,
        @DefaultValue("") String adminToken,
        Long parentPid,
        @DefaultValue("") String replicaId,
        @DefaultValue("6s") Duration leaderSessionTimeout,
        @DefaultValue("") String advertisedUrl,
        @DefaultValue("15s") Duration leaderForwardTimeout) {
}
