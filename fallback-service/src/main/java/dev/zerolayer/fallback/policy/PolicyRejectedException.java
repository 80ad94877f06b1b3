package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.web.ApiError;
import dev.zerolayer.platform.web.ApiException;
import java.util.List;
import java.util.stream.Collectors;

/** A policy document that cannot be accepted (400), with every violation found; its message names each field. */
public class PolicyRejectedException extends ApiException {

    private static final int LISTED = 10;

    private final List<PolicyViolation> violations;

    public PolicyRejectedException(List<PolicyViolation> violations) {
        super(400, "invalid_request_error", describe(violations), violations.stream()
                .map(v -> new ApiError.FieldError(v.pointer(), v.message())).toList());
        this.violations = List.copyOf(violations);
    }

    public PolicyRejectedException(PolicyViolation violation) {
        this(List.of(violation));
    }

    public List<PolicyViolation> violations() {
        return violations;
    }

    private static String describe(List<PolicyViolation> violations) {
        String listed = violations.stream().limit(LISTED).map(PolicyViolation::toString)
                .collect(Collectors.joining("; "));
        int more = violations.size() - LISTED;
        return "invalid policy: " + listed + (more > 0 ? "; and " + more + " more" : "");
    }
}
