package dev.zerolayer.platform.replica;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where this replica's HTTP server answers its peers: {@code zerolayer.advertised-url} when set, otherwise
 * {@code http://<this host's address>:<the port the server bound>} once the server has started; empty before.
 */
public final class ReplicaAddress implements Supplier<Optional<URI>> {

    private final URI configured;
    private volatile URI bound;

    private ReplicaAddress(URI configured) {
        this.configured = configured;
    }

    /** The configured URL (an absolute http or https URL), or, when blank, the one the server start reports. */
    public static ReplicaAddress of(String configured) {
        if (configured == null || configured.isBlank()) {
            return new ReplicaAddress(null);
        }
        URI url;
        try {
            url = URI.create(configured.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("zerolayer.advertised-url is not a URL: " + configured, e);
        }
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("zerolayer.advertised-url must be an http(s) URL with a host: "
                    + configured);
        }
        return new ReplicaAddress(url);
    }

    /** Records the port the server bound (called once it listens); ignored when a URL is configured. */
    public void serverStarted(int port) {
        if (configured == null && port > 0) {
            bound = URI.create("http://" + hostAddress() + ":" + port);
        }
    }

    @Override
    public Optional<URI> get() {
        return Optional.ofNullable(configured != null ? configured : bound);
    }

    private static String hostAddress() {
        try {
            InetAddress local = InetAddress.getLocalHost();
            String address = local.getHostAddress();
            return address.contains(":") ? "[" + address + "]" : address;
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
