package dev.zerolayer.fallback;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** fallback-service: fallback policy store and fallback-rate monitor; for now it counts fallbacks per tier. */
@SpringBootApplication
public class FallbackApplication {

    public static void main(String[] args) {
        SpringApplication.run(FallbackApplication.class, args);
    }
}
