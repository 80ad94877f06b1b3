package dev.zerolayer.fallback.policy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.topics.CompactedTopicReader;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@code fallback.policy.v1} from the beginning to its end offsets as of the call (no consumer group): the newest
 * valid {@code active} record and the highest version any record carried, so a fresh start knows the topic is empty.
 */
public final class TopicSnapshot {

    private static final Logger log = LoggerFactory.getLogger(TopicSnapshot.class);

    /** What the topic held. */
    public record Snapshot(Optional<FallbackPolicy> latest, long highestVersion, long records) {
    }

    private final CompactedTopicReader reader;

    /** @param reader the platform's reader (the service's broker and client settings), giving up after its timeout */
    public TopicSnapshot(CompactedTopicReader reader) {
        this.reader = reader;
    }

    public Snapshot read() {
        FallbackPolicy[] latest = {null};
        long[] highest = {0};
        long records = reader.readRecordsToEnd(Topics.FALLBACK_POLICY_TOPIC, "fallback-service-policy-snapshot",
                (record, policy) -> {
                    if (policy == null) {
                        return;
                    }
                    highest[0] = Math.max(highest[0], policy.version());
                    if (latest[0] == null || policy.version() >= latest[0].version()) {
                        latest[0] = policy;
                    }
                }, (record, e) -> {
                    if (record.value() != null) {
                        highest[0] = Math.max(highest[0], versionOf(record.value()));
                    }
                    log.warn("{} partition {} offset {}: not a policy record ({}), skipped",
                            record.topic(), record.partition(), record.offset(), e.getMessage());
                }, () -> true);
        return new Snapshot(Optional.ofNullable(latest[0]), highest[0], records);
    }

    /** The version a record claims even when it does not decode as a whole, 0 when it names none. */
    private static long versionOf(byte[] value) {
        try {
            JsonNode tree = EventCodec.mapper().readTree(value);
            JsonNode version = tree == null ? null : tree.get("version");
            return version != null && version.canConvertToLong() ? Math.max(0, version.asLong()) : 0;
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
