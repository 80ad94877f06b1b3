package dev.zerolayer.cache.bridge;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageStringCodingException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import org.msgpack.value.ValueType;

/**
 * One decoded vLLM {@code KVEventBatch} (msgspec msgpack): the array form {@code [ts, [event…], dp_rank?]} with events
 * {@code ["BlockStored", hashes, parent, token_ids, block_size, lora_id, medium, …]}, {@code ["BlockRemoved", hashes,
 * medium, …]} and {@code ["AllBlocksCleared"]} (trailing defaults may be left out), or the same structs as maps with a
 * {@code type} tag. Block hashes are integers (the low 64 bits are kept) or raw hash bytes (their last 8 bytes, big
 * endian, as {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES} would give). Unknown event kinds are skipped and counted.
 * Anything else — including containers or strings that declare more than the payload holds, nesting deeper than
 * {@link #MAX_DEPTH} and integers out of range where an int is wanted — is a {@link MalformedFrameException}.
 */
public record VllmEventBatch(double timestamp, List<Event> events, Integer dataParallelRank, int unknownEvents) {

    /** A decoded event. */
    public sealed interface Event permits Stored, Removed, Cleared {
    }

    /** BlockStored: the new blocks, their parent (null at the start of a sequence), block size and storage medium. */
    public record Stored(List<Long> blockHashes, Long parentBlockHash, int blockSize, String medium) implements Event {
    }

    /** BlockRemoved: blocks evicted from a medium. */
    public record Removed(List<Long> blockHashes, String medium) implements Event {
    }

    /** AllBlocksCleared. */
    public record Cleared() implements Event {
    }

    /** Nesting deeper than this is refused (a batch nests 4 deep: batch, events, event, hashes). */
    public static final int MAX_DEPTH = 32;

    public static VllmEventBatch decode(byte[] payload) throws MalformedFrameException {
        checkBounds(payload);
        Value root;
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            root = unpacker.unpackValue();
            if (unpacker.hasNext()) {
                throw new MalformedFrameException("trailing bytes after the batch");
            }
        } catch (IOException | MessagePackException e) {
            throw new MalformedFrameException("payload is not msgpack: " + e.getClass().getSimpleName());
        }
        Value ts;
        Value events;
        Value rank = null;
        if (root.isArrayValue()) {
            List<Value> fields = root.asArrayValue().list();
            if (fields.size() < 2) {
                throw new MalformedFrameException("batch array needs ts and events");
            }
            ts = fields.get(0);
            events = fields.get(1);
            rank = fields.size() > 2 ? fields.get(2) : null;
        } else if (root.isMapValue()) {
            Map<Value, Value> fields = root.asMapValue().map();
            ts = fields.get(ValueFactory.newString("ts"));
            events = fields.get(ValueFactory.newString("events"));
            rank = fields.get(ValueFactory.newString("data_parallel_rank"));
        } else {
            throw new MalformedFrameException("batch is neither an array nor a map");
        }
        if (ts == null || !(ts.isFloatValue() || ts.isIntegerValue())) {
            throw new MalformedFrameException("batch ts is not a number");
        }
        if (events == null || !events.isArrayValue()) {
            throw new MalformedFrameException("batch events is not an array");
        }
        List<Event> decoded = new ArrayList<>();
        int unknown = 0;
        for (Value event : events.asArrayValue()) {
            Event one = event(event);
            if (one == null) {
                unknown++;
            } else {
                decoded.add(one);
            }
        }
        Integer dpRank = rank != null && rank.isIntegerValue() && rank.asIntegerValue().isInIntRange()
                ? rank.asIntegerValue().toInt() : null;
        double time = ts.isFloatValue() ? ts.asFloatValue().toDouble() : ts.asIntegerValue().toDouble();
        return new VllmEventBatch(time, List.copyOf(decoded), dpRank, unknown);
    }

    /** Decodes one event; null for an unknown kind. */
    private static Event event(Value event) throws MalformedFrameException {
        String tag;
        List<Value> fields;
        if (event.isArrayValue()) {
            ArrayValue array = event.asArrayValue();
            if (array.size() == 0 || !array.get(0).isStringValue()) {
                throw new MalformedFrameException("event array does not start with its tag");
            }
            tag = string(array.get(0), "event tag");
            fields = array.list().subList(1, array.size());
        } else if (event.isMapValue()) {
            MapValue map = event.asMapValue();
            Value type = map.map().get(ValueFactory.newString("type"));
            if (type == null || !type.isStringValue()) {
                throw new MalformedFrameException("event map has no type tag");
            }
            tag = string(type, "event tag");
            fields = switch (tag) {
                case "BlockStored" -> byName(map, "block_hashes", "parent_block_hash", "token_ids", "block_size",
                        "lora_id", "medium");
                case "BlockRemoved" -> byName(map, "block_hashes", "medium");
                default -> List.of();
            };
        } else {
            throw new MalformedFrameException("event is neither an array nor a map");
        }
        return switch (tag) {
            case "BlockStored" -> new Stored(hashes(field(fields, 0)), optionalHash(field(fields, 1)),
                    blockSize(field(fields, 3)), text(field(fields, 5)));
            case "BlockRemoved" -> new Removed(hashes(field(fields, 0)), text(field(fields, 1)));
            case "AllBlocksCleared" -> new Cleared();
            default -> null;
        };
    }

    private static int blockSize(Value value) throws MalformedFrameException {
        if (value == null || !value.isIntegerValue()) {
            return 0;
        }
        if (!value.asIntegerValue().isInIntRange()) {
            throw new MalformedFrameException("block_size is out of range");
        }
        return value.asIntegerValue().toInt();
    }

    /**
     * Walks the payload without building it: every array, map, string, binary and extension must fit in the bytes
     * that follow its header, and nesting must stay within {@link #MAX_DEPTH}, so that building it afterwards
     * allocates no more than the payload's size and recurses no deeper than that.
     */
    private static void checkBounds(byte[] payload) throws MalformedFrameException {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            long[] pending = new long[MAX_DEPTH + 1];
            int depth = 0;
            pending[0] = 1;
            while (depth >= 0) {
                if (pending[depth] == 0) {
                    depth--;
                    continue;
                }
                pending[depth]--;
                if (!unpacker.hasNext()) {
                    throw new MalformedFrameException("payload is not msgpack: truncated");
                }
                ValueType type = unpacker.getNextFormat().getValueType();
                long elements;
                if (type == ValueType.ARRAY) {
                    elements = Integer.toUnsignedLong(unpacker.unpackArrayHeader());
                } else if (type == ValueType.MAP) {
                    elements = 2 * Integer.toUnsignedLong(unpacker.unpackMapHeader());
                } else {
                    unpacker.skipValue(); // scalars, strings, binaries, extensions: skipping allocates nothing
                    continue;
                }
                // each element takes at least one byte of what follows the header
                if (elements > payload.length - unpacker.getTotalReadBytes()) {
                    throw new MalformedFrameException("a container declares more elements than the payload holds");
                }
                if (elements > 0) {
                    if (depth == MAX_DEPTH) {
                        throw new MalformedFrameException("nested deeper than " + MAX_DEPTH);
                    }
                    pending[++depth] = elements;
                }
            }
        } catch (IOException | MessagePackException | IllegalArgumentException e) {
            throw new MalformedFrameException("payload is not msgpack: " + e.getClass().getSimpleName());
        }
    }

    private static List<Value> byName(MapValue map, String... names) {
        List<Value> values = new ArrayList<>(names.length);
        for (String name : names) {
            values.add(map.map().get(ValueFactory.newString(name)));
        }
        return values;
    }

    private static Value field(List<Value> fields, int at) {
        return at < fields.size() ? fields.get(at) : null;
    }

    private static List<Long> hashes(Value value) throws MalformedFrameException {
        if (value == null || !value.isArrayValue()) {
            throw new MalformedFrameException("block_hashes is not an array");
        }
        List<Long> hashes = new ArrayList<>(value.asArrayValue().size());
        for (Value hash : value.asArrayValue()) {
            hashes.add(hash(hash));
        }
        return hashes;
    }

    private static Long optionalHash(Value value) throws MalformedFrameException {
        return value == null || value.isNilValue() ? null : hash(value);
    }

    private static long hash(Value value) throws MalformedFrameException {
        if (value.isIntegerValue()) {
            return value.asIntegerValue().asBigInteger().longValue();
        }
        if (value.isBinaryValue()) {
            byte[] bytes = value.asBinaryValue().asByteArray();
            if (bytes.length == 0) {
                throw new MalformedFrameException("empty block hash");
            }
            long low = 0;
            for (int i = Math.max(0, bytes.length - 8); i < bytes.length; i++) {
                low = (low << 8) | (bytes[i] & 0xff);
            }
            return low;
        }
        throw new MalformedFrameException("block hash is neither an integer nor bytes");
    }

    private static String text(Value value) throws MalformedFrameException {
        return value != null && value.isStringValue() ? string(value, "medium") : null;
    }

    private static String string(Value value, String field) throws MalformedFrameException {
        try {
            return value.asStringValue().asString();
        } catch (MessageStringCodingException e) {
            throw new MalformedFrameException(field + " is not valid UTF-8");
        }
    }
}
