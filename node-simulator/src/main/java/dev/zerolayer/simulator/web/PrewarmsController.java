package dev.zerolayer.simulator.web;

import dev.zerolayer.simulator.prewarm.PrewarmInbox;
import dev.zerolayer.simulator.prewarm.PrewarmInbox.NodePrewarms;
import java.util.Map;
import java.util.SortedMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /admin/prewarms}: per simulated node, the prewarm commands it received since start (read-only). */
@RestController
public class PrewarmsController {

    private final PrewarmInbox inbox;

    public PrewarmsController(PrewarmInbox inbox) {
        this.inbox = inbox;
    }

    @GetMapping("/admin/prewarms")
    public Map<String, SortedMap<String, NodePrewarms>> prewarms() {
        return Map.of("nodes", inbox.nodes());
    }
}
