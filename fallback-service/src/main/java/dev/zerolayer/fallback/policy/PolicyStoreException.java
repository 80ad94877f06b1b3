package dev.zerolayer.fallback.policy;

import dev.zerolayer.platform.web.ApiException;

/** A policy change or read that cannot be done now, with the HTTP status and API error type it answers with. */
public class PolicyStoreException extends ApiException {

    public PolicyStoreException(int status, String type, String message) {
        super(status, type, message);
    }

    static PolicyStoreException notReady() {
        return new PolicyStoreException(503, "api_error",
                "the policy store is not ready yet: fallback.policy.v1 has not been read (broker unreachable?)");
    }

    static PolicyStoreException stale(long presented, long current) {
        return new PolicyStoreException(412, "invalid_request_error", "If-Match: version " + presented
                + " is not the active version " + current + "; GET /v1/policy, reapply the change and send its ETag");
    }

    static PolicyStoreException unpublished(long version) {
        return new PolicyStoreException(503, "api_error", "version " + version
                + " could not be published to fallback.policy.v1; the active policy is unchanged, try again");
    }
}
