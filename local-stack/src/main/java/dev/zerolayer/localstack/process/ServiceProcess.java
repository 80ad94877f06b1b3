package dev.zerolayer.localstack.process;

import java.nio.file.Path;

/** A running child: its spec, its process and the file its stdout and stderr go to. */
public record ServiceProcess(ServiceSpec spec, Process process, Path log) {

    public String name() {
        return spec.module();
    }

    public boolean alive() {
        return process.isAlive();
    }
}
