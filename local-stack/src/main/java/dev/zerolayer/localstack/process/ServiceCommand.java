package dev.zerolayer.localstack.process;

import java.nio.file.Path;
import java.util.List;

/** Every child runs on this JVM's java with a 256 MB heap and C1 only, told its port and the launcher's pid. */
public final class ServiceCommand {

    private ServiceCommand() {
    }

    public static List<String> of(ServiceSpec spec, Path root, long parentPid) {
        return List.of(javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", spec.jar(root).toString(),
                "--server.port=" + spec.port(), "--zerolayer.parent-pid=" + parentPid);
    }

    /** The java of the JVM running the launcher, so the children use the same JDK. */
    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
