package dev.zerolayer.complexity.model;

import dev.zerolayer.contracts.complexity.ComplexityModel;
import dev.zerolayer.contracts.topics.Topics;
import dev.zerolayer.platform.events.EventReader;
import dev.zerolayer.platform.view.CompactedView;
import java.time.Clock;
import java.util.Optional;

/** The compacted view of {@code complexity.model.v1}: the latest published model, if any is readable. */
public class ModelView extends CompactedView<ComplexityModel> {

    public ModelView(EventReader reader, Clock clock) {
        super(Topics.COMPLEXITY_MODEL_TOPIC, reader, clock);
    }

    /** The latest published model, if any record under {@code active} was readable. */
    public Optional<ComplexityModel> published() {
        return get(ComplexityModel.KEY);
    }
}
