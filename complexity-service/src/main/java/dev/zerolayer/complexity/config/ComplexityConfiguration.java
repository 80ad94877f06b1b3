package dev.zerolayer.complexity.config;

import dev.zerolayer.complexity.baseline.Baseline;
import dev.zerolayer.complexity.calibration.Calibration;
import dev.zerolayer.complexity.calibration.CalibrationWindow;
import dev.zerolayer.complexity.calibration.Calibrator;
import dev.zerolayer.complexity.model.ActiveModel;
import dev.zerolayer.complexity.model.ModelOwner;
import dev.zerolayer.platform.config.ZeroLayerProperties;
import dev.zerolayer.platform.leader.LeaderWrites;
import dev.zerolayer.platform.leader.Leadership;
import dev.zerolayer.platform.leader.TermWriter;
import dev.zerolayer.platform.replica.ReplicaAddress;
import dev.zerolayer.platform.replica.ReplicaId;
import dev.zerolayer.complexity.model.ModelPublisher;
import dev.zerolayer.complexity.model.ModelTerm;
import dev.zerolayer.complexity.model.ModelUploads;
import dev.zerolayer.complexity.model.ModelValidator;
import dev.zerolayer.complexity.model.ModelView;
import dev.zerolayer.complexity.model.SanitySet;
import dev.zerolayer.complexity.observation.ObservedDecisions;
import dev.zerolayer.complexity.policy.ActivePolicy;
import dev.zerolayer.complexity.scoring.Scoring;
import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.DeadLetters;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.topics.TopicGuard;
import dev.zerolayer.platform.view.CompactedView;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.stream.config.BindingServiceProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/** The service's beans; consumer bindings and destinations are in application.yml. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ComplexityProperties.class)
public class ComplexityConfiguration {

    /** The complexity model topic, read whole (this service is its single writer). */
    @Bean
    ModelView complexityModel(EventReader reader, Clock clock) {
        return new ModelView(reader, clock);
    }

    @Bean
    CompactedView<FallbackPolicy> fallbackPolicy(EventReader reader, Clock clock) {
        return new CompactedView<>(Topics.FALLBACK_POLICY_TOPIC, reader, clock);
    }

    @Bean
    ActivePolicy activePolicy(CompactedView<FallbackPolicy> fallbackPolicy) {
        return new ActivePolicy(fallbackPolicy);
    }

    @Bean
    ActiveModel activeModel(ModelView complexityModel) {
        return new ActiveModel(complexityModel);
    }

    @Bean
    ModelTerm modelTerm(TopicGuard guard, Leadership leadership, TermWriter termWriter) {
        return new ModelTerm(guard, leadership, termWriter);
    }

    @Bean
    ModelPublisher modelPublisher(TermWriter termWriter, ModelView complexityModel) {
        return new ModelPublisher(termWriter, complexityModel);
    }

    /** The writes only the leader takes: a follower passes them to it. */
    @Bean
    LeaderWrites leaderWrites() {
        return LeaderWrites.of("the complexity model", LeaderWrites.Route.of(HttpMethod.PUT, "/v1/complexity/model"));
    }

    /** The one replica that publishes models: elected in a group over the model topic's single partition. */
    @Bean
    Leadership leadership(ReplicaId replica, ReplicaAddress address, TopicGuard guard, ZeroLayerProperties platform,
            Clock clock) {
        return Leadership.over(Topics.COMPLEXITY_MODEL, platform, replica, address, guard, clock);
    }

    @Bean
    ModelOwner modelOwner(ModelView complexityModel, ActiveModel activeModel, ModelPublisher publisher,
            TopicGuard guard, ComplexityProperties properties, Clock clock, Leadership leadership,
            ObjectProvider<BindingServiceProperties> bindings) {
        return new ModelOwner(complexityModel, activeModel, publisher, guard, properties.model().publishTimeout(),
                clock, leadership, () -> bindings.getObject().getGroup("complexityModel-in-0"));
    }

    @Bean
    ModelValidator modelValidator(ComplexityProperties properties) {
        ComplexityProperties.Model model = properties.model();
        return new ModelValidator(SanitySet.builtIn(), new ModelValidator.Limits(model.minSanityAuc(),
                model.maxAbsWeight(), model.maxAbsIntercept(), model.enforceFeatureDirections()));
    }

    @Bean
    ModelUploads modelUploads(ModelValidator validator, ModelPublisher publisher, ActiveModel activeModel,
            ModelOwner owner, Clock clock, ComplexityProperties properties, MeterRegistry meters,
            Leadership leadership) {
        return new ModelUploads(validator, publisher, activeModel, owner, clock, properties.model().publishTimeout(),
                meters, leadership);
    }

    @Bean
    Scoring scoring(ActiveModel activeModel, MeterRegistry meters) {
        return new Scoring(activeModel, meters);
    }

    @Bean
    Baseline baseline(ActiveModel activeModel, ActivePolicy policy, ComplexityProperties properties) {
        return new Baseline(activeModel, policy, properties.maxBaselineItems());
    }

    @Bean
    Calibration calibration(ActivePolicy policy, ComplexityProperties properties, Clock clock, MeterRegistry meters) {
        ComplexityProperties.Calibration settings = properties.calibration();
        return new Calibration(new CalibrationWindow(clock, settings.window(), settings.slots(), settings.bands()),
                policy, new Calibrator.Settings(settings.targetFallbackRate(), settings.minDecisions(),
                        settings.minBandDecisions()), clock, meters);
    }

    @Bean
    ObservedDecisions routerDecisions(EventReader reader, StreamBridge bridge, Calibration calibration) {
        return new ObservedDecisions(reader, new DeadLetters(bridge, Topics.COMPLEXITY), calibration::record);
    }
}
