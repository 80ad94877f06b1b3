package dev.zerolayer.simulator;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * node-simulator: a fleet of simulated GPU serving nodes (each its own HTTP server speaking the Anthropic and OpenAI APIs)
 * that publish registrations, samples and KV-cache events, honour prewarm commands and take injected faults.
 */
@SpringBootApplication
public class SimulatorApplication {

    public static void main(String[] args) {
        SpringApplication.run(SimulatorApplication.class, args);
    }
}
