package dev.zerolayer.router;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** router-service: the Anthropic/OpenAI-compatible gateway that decides, dispatches with bypass, and publishes one decision event per request. */
@SpringBootApplication
public class RouterApplication {

    public static void main(String[] args) {
        SpringApplication.run(RouterApplication.class, args);
    }
}
