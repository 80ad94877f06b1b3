package dev.zerolayer.simulator.prewarm;

import dev.zerolayer.contracts.cache.PrewarmCommand;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.messaging.Message;

/**
 * The prewarm commands read from {@code cache.prewarm.v1}, per node: how many arrived since start and the latest
 * {@value #KEPT_PER_NODE} of them, oldest first; each valid command is also handed to the fleet, which marks its blocks
 * cached on the named node.
 */
public class PrewarmInbox implements Consumer<Message<byte[]>> {

    /** How many commands are kept per node; older ones are only counted. */
    public static final int KEPT_PER_NODE = 100;

    private final EventReader reader;
    private final Consumer<PrewarmCommand> onCommand;
    private final Map<String, NodeInbox> byNode = new ConcurrentHashMap<>();

    public PrewarmInbox(EventReader reader) {
        this(reader, command -> {
        });
    }

    public PrewarmInbox(EventReader reader, Consumer<PrewarmCommand> onCommand) {
        this.reader = reader;
        this.onCommand = onCommand;
    }

    @Override
    public void accept(Message<byte[]> message) {
        PrewarmCommand command = reader.read(message, Topics.CACHE_PREWARM_TOPIC);
        byNode.computeIfAbsent(command.nodeId(), node -> new NodeInbox()).add(command);
        onCommand.accept(command);
    }

    /** What one node received (nothing when no command named it). */
    public NodePrewarms node(String nodeId) {
        NodeInbox inbox = byNode.get(nodeId);
        return inbox == null ? new NodePrewarms(0, List.of()) : inbox.snapshot();
    }

    /** Every node that received a command, by id. */
    public SortedMap<String, NodePrewarms> nodes() {
        SortedMap<String, NodePrewarms> nodes = new TreeMap<>();
        byNode.forEach((node, inbox) -> nodes.put(node, inbox.snapshot()));
        return nodes;
    }

    /** How many commands a node received since start, and the latest ones, oldest first. */
    public record NodePrewarms(long received, List<PrewarmCommand> latest) {
    }

    private static final class NodeInbox {
        private final Deque<PrewarmCommand> latest = new ArrayDeque<>();
        private long received;

        synchronized void add(PrewarmCommand command) {
            received++;
            latest.addLast(command);
            if (latest.size() > KEPT_PER_NODE) {
                latest.removeFirst();
            }
        }

        synchronized NodePrewarms snapshot() {
            return new NodePrewarms(received, List.copyOf(latest));
        }
    }
}
