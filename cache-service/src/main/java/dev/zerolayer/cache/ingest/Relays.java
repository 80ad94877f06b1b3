package dev.zerolayer.cache.ingest;

import dev.zerolayer.platform.leader.TermWriter;
import java.util.List;

/** Starts the relays of the nodes whose KV events a partition holds, when it is gained (bridged vLLM nodes). */
@FunctionalInterface
public interface Relays {

    /** No relays at all. */
    Relays NONE = (partition, partitions, writer) -> Relay.NONE;

    /** Relays partition {@code partition}'s nodes (of {@code partitions}), writing under {@code writer}. */
    Relay start(int partition, int partitions, TermWriter writer);

    /** The relays running for one owned partition. */
    interface Relay {

        /** No node relayed. */
        Relay NONE = new Relay() {
            @Override
            public List<String> nodes() {
                return List.of();
            }

            @Override
            public void stop() {
            }
        };

        /** The nodes relayed. */
        List<String> nodes();

        /** Stops relaying, sending what was read first where the writer still takes it. */
        void stop();
    }
}
