package dev.zerolayer.cache.bridge;

import dev.zerolayer.contracts.cache.KvCacheEvent;
import dev.zerolayer.contracts.cache.KvEventType;
import dev.zerolayer.contracts.event.EventChecks;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns one vLLM endpoint's ZeroMQ messages ({@code [topic, 8-byte big-endian seq, msgpack batch]}) into
 * {@link KvCacheEvent}s for its node: one event per vLLM event, GPU-resident blocks only, numbered by a per-node
 * sequence that starts at the bridge's start time in microseconds (so it keeps rising across bridge restarts). A vLLM
 * sequence that goes backwards means the engine restarted with an empty cache: an ALL_BLOCKS_CLEARED goes first. A jump
 * forward (messages lost between PUB and SUB) is counted.
 */
public final class VllmStreamTranslator {

    private final String nodeId;
    private final AtomicLong nodeSequence;
    private final Clock clock;
    private long lastSeq = -1;
    private long gaps;
    private long skippedEvents;

    /** @param nodeSequence the node's event sequence, shared by every endpoint of that node (data-parallel ranks) */
    public VllmStreamTranslator(String nodeId, AtomicLong nodeSequence, Clock clock) {
        this.nodeId = nodeId;
        this.nodeSequence = nodeSequence;
        this.clock = clock;
    }

    public String nodeId() {
        return nodeId;
    }

    public synchronized List<KvCacheEvent> translate(List<byte[]> frames) throws MalformedFrameException {
        if (frames.size() != 3) {
            throw new MalformedFrameException("expected 3 frames (topic, seq, payload), got " + frames.size());
        }
        if (frames.get(1).length != 8) {
            throw new MalformedFrameException("sequence frame is " + frames.get(1).length + " bytes, not 8");
        }
        long seq = ByteBuffer.wrap(frames.get(1)).getLong();
        VllmEventBatch batch = VllmEventBatch.decode(frames.get(2));
        List<KvCacheEvent> events = new ArrayList<>();
        if (lastSeq >= 0 && seq <= lastSeq) {
            events.add(event(KvEventType.ALL_BLOCKS_CLEARED, List.of(), null, 0));
        } else if (lastSeq >= 0 && seq > lastSeq + 1) {
            gaps++;
        }
        lastSeq = seq;
        skippedEvents += batch.unknownEvents();
        for (VllmEventBatch.Event event : batch.events()) {
            if (event instanceof VllmEventBatch.Stored stored) {
                if (gpu(stored.medium()) && !stored.blockHashes().isEmpty()) {
                    events.add(event(KvEventType.BLOCK_STORED, stored.blockHashes(), stored.parentBlockHash(),
                            stored.blockSize()));
                } else {
                    skippedEvents++;
                }
            } else if (event instanceof VllmEventBatch.Removed removed) {
                if (gpu(removed.medium()) && !removed.blockHashes().isEmpty()) {
                    events.add(event(KvEventType.BLOCK_REMOVED, removed.blockHashes(), null, 0));
                } else {
                    skippedEvents++;
                }
            } else {
                events.add(event(KvEventType.ALL_BLOCKS_CLEARED, List.of(), null, 0));
            }
        }
        return events;
    }

    private static boolean gpu(String medium) {
        return medium == null || medium.equalsIgnoreCase("GPU");
    }

    private KvCacheEvent event(KvEventType type, List<Long> hashes, Long parent, int blockSize) {
        return new KvCacheEvent(EventChecks.newEventId(), clock.instant(), KvCacheEvent.SCHEMA_VERSION, nodeId,
                nodeSequence.getAndIncrement(), type, hashes, parent, Math.max(0, blockSize));
    }

    /** Jumps seen in the vLLM sequence. */
    public synchronized long gaps() {
        return gaps;
    }

    /** Events not forwarded: unknown kinds, other media, empty hash lists. */
    public synchronized long skippedEvents() {
        return skippedEvents;
    }
}
