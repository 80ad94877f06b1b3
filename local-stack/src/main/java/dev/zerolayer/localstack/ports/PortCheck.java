package dev.zerolayer.localstack.ports;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A port is free only when it can be bound both on every interface and on loopback (services bind the wildcard
 * address, the broker binds 127.0.0.1), so a listener on either is reported before anything starts.
 */
public final class PortCheck {

    private PortCheck() {
    }

    /** The ports of {@code wanted} something already holds, in the given order. */
    public static List<NamedPort> busy(List<NamedPort> wanted) {
        List<NamedPort> busy = new ArrayList<>();
        for (NamedPort port : wanted) {
            if (!free(new InetSocketAddress(port.port())) || !free(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port.port()))) {
                busy.add(port);
            }
        }
        return busy;
    }

    /** One message per port that two owners of {@code wanted} both need (e.g. {@code --port 18081}). */
    public static List<String> clashes(List<NamedPort> wanted) {
        Map<Integer, NamedPort> first = new LinkedHashMap<>();
        List<String> clashes = new ArrayList<>();
        for (NamedPort port : wanted) {
            NamedPort earlier = first.putIfAbsent(port.port(), port);
            if (earlier != null) {
                clashes.add("port " + port.port() + " is wanted by both " + earlier.owner() + " and " + port.owner());
            }
        }
        return clashes;
    }

    private static boolean free(InetSocketAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }
}
