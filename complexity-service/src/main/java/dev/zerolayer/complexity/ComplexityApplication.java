package dev.zerolayer.complexity;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** complexity-service: owner of the complexity model; for now it watches the router's decisions per tier. */
@SpringBootApplication
public class ComplexityApplication {

    public static void main(String[] args) {
        SpringApplication.run(ComplexityApplication.class, args);
    }
}
