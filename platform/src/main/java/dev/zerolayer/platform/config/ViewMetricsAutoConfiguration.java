package dev.zerolayer.platform.config;

import dev.zerolayer.platform.view.CompactedView;
import dev.zerolayer.platform.view.ViewMetrics;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/** Exports every compacted-topic view's staleness and size as gauges (the dashboard's "view staleness"). */
@AutoConfiguration(after = PlatformAutoConfiguration.class)
public class ViewMetricsAutoConfiguration {

    @Bean
    ViewMetrics viewMetrics(ObjectProvider<CompactedView<?>> views, Clock clock) {
        return new ViewMetrics(views.orderedStream().toList(), clock);
    }
}
