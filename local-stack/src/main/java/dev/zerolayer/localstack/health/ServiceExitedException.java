package dev.zerolayer.localstack.health;

import dev.zerolayer.localstack.process.ServiceProcess;

/** A child ended while the stack needed it: the launcher reports its log's tail and exits 1. */
public class ServiceExitedException extends RuntimeException {

    private final transient ServiceProcess service;

    public ServiceExitedException(ServiceProcess service, String when) {
        super(service.name() + " exited with code " + service.process().exitValue() + " " + when);
        this.service = service;
    }

    public ServiceProcess service() {
        return service;
    }
}
