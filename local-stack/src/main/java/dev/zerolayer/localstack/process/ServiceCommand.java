package dev.zerolayer.localstack.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every child runs on this JVM's java, told its port and the launcher's pid, with a 256 MB heap and C1 only (fast start)
 * unless {@code ZEROLAYER_CHILD_JVM_OPTS} gives other JVM options (benchmarks use the full JIT).
 */
public final class ServiceCommand {

    /** Environment variable replacing the children's default JVM options. */
    public static final String CHILD_JVM_OPTS = "ZEROLAYER_CHILD_JVM_OPTS";
    static final List<String> DEFAULT_JVM_OPTS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

    private ServiceCommand() {
    }

    public static List<String> of(ServiceSpec spec, Path root, long parentPid) {
        return of(spec, root, parentPid, System.getenv(CHILD_JVM_OPTS));
    }

    static List<String> of(ServiceSpec spec, Path root, long parentPid, String jvmOpts) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOpts == null || jvmOpts.isBlank() ? DEFAULT_JVM_OPTS
                : Arrays.asList(jvmOpts.strip().split("\\s+")));
        command.addAll(List.of("-jar", spec.jar(root).toString(), "--server.port=" + spec.port(),
                "--zerolayer.parent-pid=" + parentPid));
        command.addAll(spec.args());
        return List.copyOf(command);
    }

    /** The java of the JVM running the launcher, so the children use the same JDK. */
    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
