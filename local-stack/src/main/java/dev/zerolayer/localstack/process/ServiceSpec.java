package dev.zerolayer.localstack.process;

import java.nio.file.Path;
import java.util.List;

/**
 * A service of the stack is a Maven module whose repackaged jar is {@code <root>/<module>/target/<module>.jar}, serving
 * HTTP on {@code port}, started with {@code args} besides its port; {@code key} names it in the READY line.
 */
public record ServiceSpec(String module, String key, int port, List<String> args) {

    public ServiceSpec {
        args = List.copyOf(args);
    }

    public ServiceSpec(String module, String key, int port) {
        this(module, key, port, List.of());
    }

    /** The same service started with these extra command-line arguments. */
    public ServiceSpec withArgs(String... more) {
        List<String> all = new java.util.ArrayList<>(args);
        all.addAll(List.of(more));
        return new ServiceSpec(module, key, port, all);
    }

    /** A spec whose key is the module name without {@code -service} / {@code node-} (node-simulator: simulator). */
    public static ServiceSpec of(String module, int port) {
        String key = module.endsWith("-service") ? module.substring(0, module.length() - "-service".length()) : module;
        key = key.startsWith("node-") ? key.substring("node-".length()) : key;
        return new ServiceSpec(module, key, port);
    }

    public Path jar(Path root) {
        return root.resolve(module).resolve("target").resolve(module + ".jar");
    }

    /** The log file's name: the module's, with the replica's number when there are several ({@code -2}). */
    public String logName() {
        String single = of(module, port).key();
        return key.startsWith(single + "-") ? module + key.substring(single.length()) : module;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }
}
