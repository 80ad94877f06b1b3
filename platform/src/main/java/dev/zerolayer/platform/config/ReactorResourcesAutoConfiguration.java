package dev.zerolayer.platform.config;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Each service context owns its Reactor Netty event loops instead of the JVM-global ones, so closing one context (a
 * restart in a test, several services in one JVM) never disposes the loops another context's server is running on.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration")
@ConditionalOnClass(name = "reactor.netty.http.HttpResources")
public class ReactorResourcesAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        return factory;
    }
}
