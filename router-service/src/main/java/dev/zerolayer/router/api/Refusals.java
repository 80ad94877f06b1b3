package dev.zerolayer.router.api;

import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.routing.refusal.RefusalDetector;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Whether a whole answer in a client API's shape is a refusal, and how the policy's explanatory prefix is added to it. */
final class Refusals {

    private Refusals() {
    }

    static boolean isRefusal(ClientApi api, ObjectNode body) {
        if (api == ClientApi.ANTHROPIC) {
            String text = null;
            for (JsonNode block : body.path("content")) {
                if ("text".equals(block.path("type").asString(""))) {
                    text = block.path("text").asString("");
                    break;
                }
            }
            return RefusalDetector.isRefusal(body.path("stop_reason").asString(null), null, text);
        }
        if (api == ClientApi.RESPONSES) {
            ObjectNode text = firstOutputText(body);
            return text != null && RefusalDetector.isRefusal(null, null, text.path("text").asString(""));
        }
        JsonNode choice = body.path("choices").path(0);
        JsonNode message = choice.path("message");
        String text = api == ClientApi.COMPLETIONS ? choice.path("text").asString(null)
                : message.path("content").isString() ? message.path("content").asString() : null;
        return RefusalDetector.isRefusal(choice.path("finish_reason").asString(null),
                message.path("refusal").isString() ? message.path("refusal").asString() : null, text);
    }

    /** Prepends the policy's explanatory prefix to the answer's first text. */
    static void annotate(ClientApi api, ObjectNode body, String prefix) {
        if (api == ClientApi.ANTHROPIC) {
            for (JsonNode block : body.path("content")) {
                if (block instanceof ObjectNode text && "text".equals(text.path("type").asString(""))) {
                    text.put("text", prefix + text.path("text").asString(""));
                    return;
                }
            }
        } else if (api == ClientApi.RESPONSES) {
            ObjectNode text = firstOutputText(body);
            if (text != null) {
                text.put("text", prefix + text.path("text").asString(""));
            }
        } else if (api == ClientApi.COMPLETIONS) {
            if (body.path("choices").path(0) instanceof ObjectNode choice) {
                choice.put("text", prefix + choice.path("text").asString(""));
            }
        } else if (body.path("choices").path(0).path("message") instanceof ObjectNode message) {
            String content = message.path("content").isString() ? message.path("content").asString()
                    : message.path("refusal").asString("");
            message.put("content", prefix + content);
        }
    }

    private static ObjectNode firstOutputText(ObjectNode response) {
        for (JsonNode item : response.path("output")) {
            for (JsonNode part : item.path("content")) {
                if (part instanceof ObjectNode text && "output_text".equals(text.path("type").asString(""))) {
                    return text;
                }
            }
        }
        return null;
    }
}
