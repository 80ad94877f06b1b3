package dev.zerolayer.fallback;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** fallback-service: the versioned fallback policy (store, admin API, publication) and the fallback-rate monitor. */
@SpringBootApplication
public class FallbackApplication {

    public static void main(String[] args) {
        SpringApplication.run(FallbackApplication.class, args);
    }
}
