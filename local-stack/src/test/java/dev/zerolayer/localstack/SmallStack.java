package dev.zerolayer.localstack;

import dev.zerolayer.localstack.process.ServiceSpec;
import java.util.ArrayList;
import java.util.List;

/** The real launcher with a stack of the caller's choosing: {@code --service module=port} (repeatable) plus the usual options. */
public final class SmallStack {

    private SmallStack() {
    }

    public static void main(String[] args) {
        List<ServiceSpec> services = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--service")) {
                String[] moduleAndPort = args[++i].split("=", 2);
                services.add(ServiceSpec.of(moduleAndPort[0], Integer.parseInt(moduleAndPort[1])));
            } else {
                rest.add(args[i]);
            }
        }
        System.exit(LocalStack.launch(rest, options -> services));
    }
}
