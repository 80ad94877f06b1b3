package dev.zerolayer.localstack.health;

import dev.zerolayer.localstack.process.ServiceSpec;
import java.util.List;
import java.util.stream.Collectors;

/** The single line on stdout that tells scripts the stack is up: every service's URL, then the broker. */
public final class ReadyLine {

    private ReadyLine() {
    }

    public static String of(List<ServiceSpec> services, String bootstrapServers) {
        String urls = services.stream().map(s -> s.key() + "=" + s.url()).collect(Collectors.joining(" "));
        return "ZEROLAYER READY " + (urls.isEmpty() ? "" : urls + " ") + "kafka=" + bootstrapServers;
    }
}
