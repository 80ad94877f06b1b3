package dev.zerolayer.platform.leader;

import java.util.Arrays;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The requests only a service's leader takes (method and path pattern): a follower passes them to the leader.
 *
 * @param what   what they write, for messages ("the policy")
 * @param routes the requests
 */
public record LeaderWrites(String what, List<Route> routes) {

    public LeaderWrites {
        routes = List.copyOf(routes);
    }

    /** One method on one path pattern ({@code /v1/policy/rollback/{version}}). */
    public record Route(HttpMethod method, PathPattern path) {

        public static Route of(HttpMethod method, String pattern) {
            return new Route(method, PathPatternParser.defaultInstance.parse(pattern));
        }
    }

    public static LeaderWrites of(String what, Route... routes) {
        return new LeaderWrites(what, Arrays.asList(routes));
    }

    /** Whether a request with {@code method} on {@code path} is one of them. */
    public boolean matches(HttpMethod method, PathContainer path) {
        for (Route route : routes) {
            if (route.method().equals(method) && route.path().matches(path)) {
                return true;
            }
        }
        return false;
    }
}
