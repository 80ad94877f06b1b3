package dev.zerolayer.platform.topics;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;

/** Replaces Spring Cloud Stream's {@code inputBindingLifecycle} with {@link DeferredInputBindingLifecycle}. */
public class DeferredBindingRegistrar implements BeanDefinitionRegistryPostProcessor {

    static final String BEAN_NAME = "inputBindingLifecycle";

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
        if (!registry.containsBeanDefinition(BEAN_NAME)) {
            return;
        }
        registry.removeBeanDefinition(BEAN_NAME);
        RootBeanDefinition deferred = new RootBeanDefinition(DeferredInputBindingLifecycle.class);
        deferred.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
        registry.registerBeanDefinition(BEAN_NAME, deferred);
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
        // nothing beyond the registry change
    }
}
