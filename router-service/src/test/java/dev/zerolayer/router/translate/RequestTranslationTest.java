package dev.zerolayer.router.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.RequestParser;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests carried to a node of the other API with their meaning: system prompts, text, images, tools and their
 * choice, tool calls and results, stop sequences and structured output; what has no equivalent is named, never
 * dropped.
 */
class RequestTranslationTest {

    private static ObjectNode json(String text) {
        return (ObjectNode) EventCodec.mapper().readTree(text);
    }

    @Test
    void anAnthropicRequestWithToolsImagesAndToolResultsBecomesAChatRequest() {
        ObjectNode chat = AnthropicToChat.translate(json("""
                {"model":"m","max_tokens":100,"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],
                 "stop_sequences":["END"],"temperature":0.5,"metadata":{"user_id":"u-1"},
                 "tools":[{"name":"get_weather","description":"w","input_schema":{"type":"object","properties":{"city":{"type":"string"}}},
                           "cache_control":{"type":"ephemeral"}}],
                 "tool_choice":{"type":"any","disable_parallel_tool_use":true},
                 "messages":[
                   {"role":"user","content":[{"type":"text","text":"Look"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAA"}}]},
                   {"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"Calling."},
                                                  {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}]},
                   {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"cold"}],"is_error":true},
                                             {"type":"text","text":"And now?"}]},
                   {"role":"system","content":"Mid-conversation note."}]}"""));

        assertThat(chat.path("messages").path(0).toString()).isEqualTo("{\"role\":\"system\",\"content\":\"Be brief.\"}");
        JsonNode user = chat.path("messages").path(1);
        assertThat(user.path("content").path(1).path("image_url").path("url").stringValue())
                .isEqualTo("data:image/png;base64,AAA");
        JsonNode assistant = chat.path("messages").path(2);
        assertThat(assistant.path("content").stringValue()).isEqualTo("Calling.");
        assertThat(assistant.path("tool_calls").path(0).path("function").path("arguments").stringValue())
                .isEqualTo("{\"city\":\"Oslo\"}");
        JsonNode tool = chat.path("messages").path(3);
        assertThat(tool.path("role").stringValue()).isEqualTo("tool");
        assertThat(tool.path("tool_call_id").stringValue()).isEqualTo("toolu_1");
        assertThat(tool.path("content").stringValue()).isEqualTo("Error: cold");
        assertThat(chat.path("messages").path(4).path("content").stringValue()).isEqualTo("And now?");
        assertThat(chat.path("messages").path(5).path("role").stringValue()).isEqualTo("system");
        assertThat(chat.path("tools").path(0).path("function").path("parameters").path("properties").has("city"))
                .isTrue();
        assertThat(chat.path("tool_choice").stringValue()).isEqualTo("required");
        assertThat(chat.path("parallel_tool_calls").booleanValue()).isFalse();
        assertThat(chat.path("stop").toString()).isEqualTo("[\"END\"]");
        assertThat(chat.path("user").stringValue()).isEqualTo("u-1");
        assertThat(chat.path("stream_options").path("include_usage").booleanValue()).isTrue();
    }

    @Test
    void whatAChatRequestCannotCarryIsNamed() {
        String base = "{\"model\":\"m\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]";
        assertThatThrownBy(() -> AnthropicToChat.translate(json(base + ",\"thinking\":{\"type\":\"adaptive\"}}")))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("thinking"));
        assertThatThrownBy(() -> AnthropicToChat.translate(json(base + ",\"mcp_servers\":[]}")))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("mcp_servers"));
        assertThatThrownBy(() -> AnthropicToChat.translate(json(base
                + ",\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}")))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("tools.0.type"));
        assertThatThrownBy(() -> AnthropicToChat.translate(json(
                "{\"model\":\"m\",\"max_tokens\":10,\"messages\":[{\"role\":\"system\",\"content\":\"x\","
                        + "\"output_config\":{\"effort\":\"low\"}}]}")))
                .isInstanceOfSatisfying(Untranslatable.class,
                        e -> assertThat(e.field()).isEqualTo("messages.0.output_config"));
        assertThat(AnthropicToChat.translate(json(base + ",\"thinking\":{\"type\":\"disabled\"}}")).has("thinking"))
                .isFalse();
    }

    @Test
    void aChatRequestWithToolCallsBecomesAnAnthropicRequest() {
        ObjectNode anthropic = ChatToAnthropic.translate(json("""
                {"model":"m","max_completion_tokens":50,"n":1,"frequency_penalty":0,"stop":"END","user":"u-2",
                 "response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"object"}}},
                 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}],
                 "tool_choice":{"type":"function","function":{"name":"get_weather"}},"parallel_tool_calls":false,
                 "messages":[{"role":"developer","content":"Be brief."},
                   {"role":"user","content":[{"type":"text","text":"Look"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]},
                   {"role":"assistant","content":null,"tool_calls":[
                      {"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Oslo\\"}"}},
                      {"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},
                   {"role":"tool","tool_call_id":"call_1","content":"cold"},
                   {"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"warm"}]}]}"""));

        assertThat(anthropic.path("system").stringValue()).isEqualTo("Be brief.");
        assertThat(anthropic.path("max_tokens").intValue()).isEqualTo(50);
        JsonNode image = anthropic.path("messages").path(0).path("content").path(1);
        assertThat(image.path("source").toString()).isEqualTo("{\"type\":\"url\",\"url\":\"https://x/y.png\"}");
        JsonNode calls = anthropic.path("messages").path(1).path("content");
        assertThat(calls.path(0).path("type").stringValue()).isEqualTo("tool_use");
        assertThat(calls.path(0).path("input").path("city").stringValue()).isEqualTo("Oslo");
        // consecutive tool messages answer in one user turn
        JsonNode results = anthropic.path("messages").path(2).path("content");
        assertThat(results).hasSize(2);
        assertThat(results.path(1).path("tool_use_id").stringValue()).isEqualTo("call_2");
        assertThat(results.path(1).path("content").stringValue()).isEqualTo("warm");
        assertThat(anthropic.path("tool_choice").toString())
                .isEqualTo("{\"type\":\"tool\",\"name\":\"get_weather\",\"disable_parallel_tool_use\":true}");
        assertThat(anthropic.path("output_config").path("format").path("type").stringValue()).isEqualTo("json_schema");
        assertThat(anthropic.path("stop_sequences").toString()).isEqualTo("[\"END\"]");
        assertThat(anthropic.path("metadata").path("user_id").stringValue()).isEqualTo("u-2");
    }

    @Test
    void whatAnAnthropicRequestCannotCarryIsNamed() {
        String base = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]";
        for (String[] bad : new String[][] {{"\"n\":2", "n"}, {"\"logprobs\":true", "logprobs"},
                {"\"temperature\":1.5", "temperature"}, {"\"presence_penalty\":0.5", "presence_penalty"},
                {"\"response_format\":{\"type\":\"json_object\"}", "response_format.type"},
                {"\"reasoning_effort\":\"high\"", "reasoning_effort"}, {"\"audio\":{}", "audio"}}) {
            assertThatThrownBy(() -> ChatToAnthropic.translate(json(base + "," + bad[0] + "}")))
                    .as(bad[0]).isInstanceOfSatisfying(Untranslatable.class,
                            e -> assertThat(e.field()).isEqualTo(bad[1]));
        }
        assertThat(ChatToAnthropic.translate(json(base + "}")).path("max_tokens").intValue())
                .isEqualTo(ChatToAnthropic.DEFAULT_MAX_TOKENS);
    }

    @Test
    void aResponsesRequestBecomesAChatRequestAndOnToAnthropic() {
        ObjectNode responses = json("""
                {"model":"m","instructions":"Be brief.","max_output_tokens":40,"store":false,"text":{"format":
                   {"type":"json_schema","name":"answer","schema":{"type":"object"},"strict":true}},
                 "tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"},"strict":null}],
                 "input":[{"role":"user","content":[{"type":"input_text","text":"Weather?"}]},
                   {"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{}","id":"fc_1","status":"completed"},
                   {"type":"function_call_output","call_id":"call_1","output":"cold"},
                   {"type":"reasoning","id":"rs_1","summary":[]},
                   {"type":"message","role":"assistant","id":"msg_1","status":"completed",
                    "content":[{"type":"output_text","text":"It is cold.","annotations":[]}]}]}""");
        ObjectNode chat = ResponsesToChat.translate(responses);
        assertThat(chat.path("messages").path(0).path("role").stringValue()).isEqualTo("system");
        assertThat(chat.path("messages").path(2).path("tool_calls").path(0).path("id").stringValue())
                .isEqualTo("call_1");
        assertThat(chat.path("messages").path(3).path("role").stringValue()).isEqualTo("tool");
        assertThat(chat.path("messages").path(4).path("content").stringValue()).isEqualTo("It is cold.");
        assertThat(chat.path("max_tokens").intValue()).isEqualTo(40);
        assertThat(chat.path("response_format").path("json_schema").path("name").stringValue()).isEqualTo("answer");
        assertThat(chat.path("tools").path(0).path("function").has("strict")).isFalse();
        ObjectNode anthropic = ChatToAnthropic.translate(chat);
        assertThat(anthropic.path("messages").path(1).path("content").path(0).path("type").stringValue())
                .isEqualTo("tool_use");
        assertThatThrownBy(() -> ResponsesToChat.translate(json(
                "{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}]}")))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("tools[0].type"));
    }

    @Test
    void aResponsesReasoningEffortIsChatsReasoningEffortAndStaysOffAnthropicNodes() {
        // Given a Responses request with a reasoning effort and a summary (as the Vercel AI SDK and Codex send them)
        ObjectNode responses = json("""
                {"model":"m","input":"x","reasoning":{"effort":"low","summary":"auto"}}""");
        // Then an OpenAI-protocol node gets the same effort under Chat Completions' name, the summary left behind
        ObjectNode chat = ResponsesToChat.translate(responses);
        assertThat(chat.path("reasoning_effort").stringValue()).isEqualTo("low");
        assertThat(chat.has("reasoning")).isFalse();
        // and an Anthropic node cannot be given it: refused under the field's Responses name
        assertThatThrownBy(() -> ResponsesToChat.toAnthropic(responses))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("reasoning.effort"));
        UpstreamBodies bodies = new UpstreamBodies(RequestParser.responses(responses.toString()
                .getBytes(StandardCharsets.UTF_8)));
        assertThat(bodies.problem(UpstreamProtocol.OPENAI)).isNull();
        assertThat(bodies.problem(UpstreamProtocol.ANTHROPIC).field()).isEqualTo("reasoning.effort");
        // while no reasoning at all ("none") is carried to both
        ObjectNode none = json("""
                {"model":"m","input":"x","reasoning":{"effort":"none"}}""");
        assertThat(ResponsesToChat.translate(none).path("reasoning_effort").stringValue()).isEqualTo("none");
        assertThat(ResponsesToChat.toAnthropic(none).has("thinking")).isFalse();
    }

    @Test
    void aResponsesJsonModeRefusedOnAnthropicNodesIsNamedAsTheClientSentIt() {
        // Given a Responses request in JSON mode without a schema
        ObjectNode responses = json("""
                {"model":"m","input":"x","text":{"format":{"type":"json_object"}}}""");
        // Then an OpenAI-protocol node gets it as Chat Completions' JSON mode
        assertThat(ResponsesToChat.translate(responses).path("response_format").path("type").stringValue())
                .isEqualTo("json_object");
        // and an Anthropic node's refusal names the Responses field, not the Chat Completions one
        assertThatThrownBy(() -> ResponsesToChat.toAnthropic(responses))
                .isInstanceOfSatisfying(Untranslatable.class, e -> assertThat(e.field()).isEqualTo("text.format.type"));
    }

    @Test
    void upstreamBodiesKeepTheClientsOwnBodyForItsApiAndStreamAlways() {
        byte[] raw = ("{\"model\":\"asked\",\"max_tokens\":5,\"future_field\":{\"x\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}").getBytes(StandardCharsets.UTF_8);
        UpstreamBodies bodies = new UpstreamBodies(RequestParser.anthropic(raw, true));
        JsonNode same = EventCodec.mapper().readTree(bodies.body(UpstreamProtocol.ANTHROPIC, "node-model"));
        assertThat(same.toString()).isEqualTo("{\"model\":\"node-model\",\"max_tokens\":5,\"future_field\":{\"x\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":true}");
        assertThat(bodies.problem(UpstreamProtocol.ANTHROPIC)).isNull();
        assertThat(bodies.problem(UpstreamProtocol.OPENAI).field()).isEqualTo("future_field");
        assertThat(bodies.path(UpstreamProtocol.OPENAI)).isEqualTo("/v1/chat/completions");

        byte[] chat = "{\"model\":\"asked\",\"stream_options\":{\"include_obfuscation\":false},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"
                .getBytes(StandardCharsets.UTF_8);
        UpstreamBodies openAi = new UpstreamBodies(RequestParser.openAi(chat));
        JsonNode forwarded = EventCodec.mapper().readTree(openAi.body(UpstreamProtocol.OPENAI, "n"));
        assertThat(forwarded.path("stream_options").toString())
                .isEqualTo("{\"include_obfuscation\":false,\"include_usage\":true}");
        assertThat(openAi.clientWantsStreamUsage()).isFalse();
        JsonNode translated = EventCodec.mapper().readTree(openAi.body(UpstreamProtocol.ANTHROPIC, "n"));
        assertThat(translated.path("model").stringValue()).isEqualTo("n");
        assertThat(translated.path("stream").booleanValue()).isTrue();
    }
}
