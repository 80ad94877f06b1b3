package dev.zerolayer.platform.topics;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.cloud.stream.binding.Bindable;
import org.springframework.cloud.stream.binding.BindingService;
import org.springframework.cloud.stream.binding.InputBindingLifecycle;

/**
 * Binds the service's consumers only once {@link TopicGuard} has verified the topics, on a background thread, so a
 * service started without a reachable broker still starts, serves its health endpoint (DOWN) and binds by itself when
 * the broker appears. (The stock lifecycle binds on the main thread and blocks start-up while the broker is away.)
 */
public class DeferredInputBindingLifecycle extends InputBindingLifecycle
        implements org.springframework.context.ApplicationListener<org.springframework.context.event.ContextRefreshedEvent> {

    private static final Logger log = LoggerFactory.getLogger(DeferredInputBindingLifecycle.class);

    private final BeanFactory beanFactory;
    private volatile Thread binder;
    private volatile boolean stopped;
    private final java.util.concurrent.CountDownLatch refreshed = new java.util.concurrent.CountDownLatch(1);

    /** Messages cannot be dispatched before the context is refreshed: late bindings wait for it. */
    @Override
    public void onApplicationEvent(org.springframework.context.event.ContextRefreshedEvent event) {
        refreshed.countDown();
    }

    public DeferredInputBindingLifecycle(BindingService bindingService, Map<String, Bindable> bindables,
            BeanFactory beanFactory) {
        super(bindingService, bindables);
        this.beanFactory = beanFactory;
    }

    @Override
    public void start() {
        TopicGuard guard = beanFactory.getBean(TopicGuard.class);
        if (guard.ready()) {
            super.start();
            return;
        }
        stopped = false;
        Thread thread = new Thread(() -> {
            try {
                guard.awaitReady();
                refreshed.await();
                if (!stopped) {
                    super.start();
                    log.info("consumer bindings started");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "deferred-bindings");
        thread.setDaemon(true);
        binder = thread;
        thread.start();
    }

    @Override
    public void stop() {
        stopped = true;
        Thread thread = binder;
        if (thread != null) {
            thread.interrupt();
        }
        super.stop();
    }
}
