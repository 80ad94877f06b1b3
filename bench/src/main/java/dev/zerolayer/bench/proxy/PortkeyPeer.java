package dev.zerolayer.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Portkey AI gateway ({@code @portkey-ai/gateway}, pinned version, npm-installed into a cache dir) on Node.js,
 * bound to loopback, told per request to use the simulated node as a custom Anthropic host
 * ({@code x-portkey-provider: anthropic}, {@code x-portkey-custom-host: http://node/v1}); a preload keeps it on
 * 127.0.0.1 and works around its streaming defect (see {@code proxy/portkey-preload.mjs}).
 */
public final class PortkeyPeer implements Peer {

    public static final String PACKAGE = "@portkey-ai/gateway";
    public static final String VERSION = "1.15.2";

    private final PeerProcess process;
    private final int port;
    private final String customHost;
    private final String nodeVersion;

    private PortkeyPeer(PeerProcess process, int port, String customHost, String nodeVersion) {
        this.process = process;
        this.port = port;
        this.customHost = customHost;
        this.nodeVersion = nodeVersion;
    }

    /** Where the gateway is installed unless told otherwise: {@code ~/.cache/zerolayer-bench/portkey}. */
    public static Path defaultCache() {
        return Path.of(System.getProperty("user.home"), ".cache", "zerolayer-bench", "portkey");
    }

    static Path entry(Path cache) {
        return cache.resolve("node_modules/@portkey-ai/gateway/build/start-server.js");
    }

    /** The installed gateway's entry point, if the pinned version is installed in {@code cache}. */
    public static Optional<Path> installed(Path cache) {
        Path manifest = cache.resolve("node_modules/@portkey-ai/gateway/package.json");
        try {
            if (Files.isRegularFile(entry(cache)) && Files.readString(manifest).contains("\"version\": \"" + VERSION
                    + "\"")) {
                return Optional.of(entry(cache));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    static Optional<Path> onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Installs Node.js (apt) when absent and the pinned gateway (npm) into {@code cache}; fails naming Portkey. */
    public static Path install(Path cache) throws IOException, InterruptedException {
        Optional<Path> done = installed(cache);
        if (done.isPresent()) {
            return done.get();
        }
        Files.createDirectories(cache);
        if (onPath("node").isEmpty() || onPath("npm").isEmpty()) {
            System.err.println("portkey: node/npm not installed; apt-get install -y nodejs npm");
            try {
                PeerProcess.runSetup("portkey", List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install",
                        "-y", "nodejs", "npm"), cache, Duration.ofMinutes(10));
            } catch (PeerProcess.PeerException first) {
                PeerProcess.runSetup("portkey", List.of("apt-get", "update"), cache, Duration.ofMinutes(5));
                PeerProcess.runSetup("portkey", List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install",
                        "-y", "nodejs", "npm"), cache, Duration.ofMinutes(10));
            }
        }
        Path manifest = cache.resolve("package.json");
        if (!Files.exists(manifest)) {
            Files.writeString(manifest, "{\"name\": \"zerolayer-bench-portkey\", \"private\": true}\n");
        }
        System.err.println("portkey: npm install " + PACKAGE + "@" + VERSION + " into " + cache);
        PeerProcess.runSetup("portkey", List.of("npm", "install", "--no-audit", "--no-fund", PACKAGE + "@" + VERSION),
                cache, Duration.ofMinutes(10));
        return installed(cache).orElseThrow(() -> new PeerProcess.PeerException("portkey", "npm install of "
                + PACKAGE + "@" + VERSION + " finished but " + entry(cache) + " is missing"));
    }

    /**
     * Checks, in the installed package, that it knows the headers this run relies on: the custom-host and provider
     * headers and Anthropic as a provider (its README only links to the hosted docs for them).
     */
    static void checkHeadersKnown(Path entry) throws IOException {
        String build = Files.readString(entry);
        for (String needle : List.of("custom-host", "-provider", "\"anthropic\"", "TRUSTED_CUSTOM_HOSTS")) {
            if (!build.contains(needle)) {
                throw new PeerProcess.PeerException("portkey", entry + " does not mention " + needle
                        + ": the custom Anthropic host configuration this run uses may have changed");
            }
        }
    }

    /** Installs if allowed, starts the gateway on 127.0.0.1:{@code port} and checks it listens on loopback only. */
    public static PortkeyPeer start(int port, String nodeBase, Path cache, boolean mayInstall) throws Exception {
        Path entry = mayInstall ? install(cache) : installed(cache).orElseThrow(() -> new PeerProcess.PeerException(
                "portkey", PACKAGE + "@" + VERSION + " not installed in " + cache));
        checkHeadersKnown(entry);
        Path node = onPath("node").orElseThrow(() -> new PeerProcess.PeerException("portkey", "node not on PATH"));
        String nodeVersion = PeerProcess.runSetup("portkey", List.of(node.toString(), "--version"), cache,
                Duration.ofSeconds(10)).trim();
        Path dir = Files.createTempDirectory("zerolayer-bench-portkey");
        Path preload = dir.resolve("portkey-preload.mjs");
        try (InputStream in = PortkeyPeer.class.getResourceAsStream("/proxy/portkey-preload.mjs")) {
            if (in == null) {
                throw new PeerProcess.PeerException("portkey", "resource proxy/portkey-preload.mjs missing");
            }
            Files.copy(in, preload, StandardCopyOption.REPLACE_EXISTING);
        }
        PeerProcess process = PeerProcess.start("portkey", List.of(node.toString(), "--import",
                        preload.toUri().toString(), entry.toString(), "--port=" + port, "--headless"),
                Map.of("NODE_ENV", "production", "TRUSTED_CUSTOM_HOSTS", "127.0.0.1,localhost"), cache,
                dir.resolve("portkey.log"));
        try {
            process.awaitHttp("http://127.0.0.1:" + port + "/", Duration.ofSeconds(60));
            if (!PeerProcess.listensOnLoopbackOnly(port)) {
                throw new PeerProcess.PeerException("portkey", "listens on more than 127.0.0.1:" + port);
            }
        } catch (RuntimeException | InterruptedException e) {
            process.close();
            throw e;
        }
        return new PortkeyPeer(process, port, nodeBase + "/v1", nodeVersion);
    }

    @Override
    public String name() {
        return "portkey";
    }

    @Override
    public String messagesUrl() {
        return "http://127.0.0.1:" + port + "/v1/messages";
    }

    @Override
    public Map<String, String> headers() {
        return Map.of("x-api-key", ProxyOverheadRun.KEY, "anthropic-version", "2023-06-01",
                "x-portkey-provider", "anthropic", "x-portkey-custom-host", customHost);
    }

    @Override
    public String describe() {
        return PACKAGE + " " + VERSION + " on Node.js " + nodeVersion + ", NODE_ENV=production, --headless, "
                + "x-portkey-provider: anthropic, x-portkey-custom-host: " + customHost;
    }

    public String tail() {
        return process.tail();
    }

    @Override
    public void close() {
        process.close();
    }
}
