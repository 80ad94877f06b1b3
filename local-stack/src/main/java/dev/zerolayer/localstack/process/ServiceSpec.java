package dev.zerolayer.localstack.process;

import java.nio.file.Path;

/**
 * A service of the stack is a Maven module whose repackaged jar is {@code <root>/<module>/target/<module>.jar}, serving
 * HTTP on {@code port}; {@code key} names it in the READY line.
 */
public record ServiceSpec(String module, String key, int port) {

    /** A spec whose key is the module name without {@code -service} / {@code node-} (node-simulator: simulator). */
    public static ServiceSpec of(String module, int port) {
        String key = module.endsWith("-service") ? module.substring(0, module.length() - "-service".length()) : module;
        key = key.startsWith("node-") ? key.substring("node-".length()) : key;
        return new ServiceSpec(module, key, port);
    }

    public Path jar(Path root) {
        return root.resolve(module).resolve("target").resolve(module + ".jar");
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }
}
