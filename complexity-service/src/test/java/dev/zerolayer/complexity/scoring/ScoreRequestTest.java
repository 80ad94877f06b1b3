package dev.zerolayer.complexity.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zerolayer.routing.complexity.Role;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Score requests are read like Anthropic messages; every refusal names the item and field. */
class ScoreRequestTest {

    @Test
    void readsStringAndBlockContentSystemBlocksAndToolResults() {
        List<ScoreRequest.Item> items = ScoreRequest.items(JsonBodies.object(bytes("""
                {"items":[
                  {"id":"a","messages":[{"role":"user","content":"hello"}]},
                  {"id":7,"system":[{"type":"text","text":"be brief"}],"messages":[
                    {"role":"user","content":[{"type":"text","text":"one"},{"type":"image","source":{}},
                                              {"type":"text","text":"two"}]},
                    {"role":"assistant","content":"ok"},
                    {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"42"}]}]}
                ]}""")), 10);

        assertThat(items).hasSize(2);
        assertThat(items.get(0).id().stringValue()).isEqualTo("a");
        assertThat(items.get(0).conversation().turns()).singleElement()
                .satisfies(turn -> assertThat(turn.text()).isEqualTo("hello"));
        assertThat(items.get(1).id().intValue()).isEqualTo(7);
        assertThat(items.get(1).conversation().system()).isEqualTo("be brief");
        assertThat(items.get(1).conversation().turns()).extracting(t -> t.role() + ":" + t.text())
                .containsExactly(Role.USER + ":one\ntwo", Role.ASSISTANT + ":ok", Role.USER + ":42");
    }

    @Test
    void refusalsNameTheItemAndField() {
        assertRefused("{}", "items: required");
        assertRefused("{\"items\":{}}", "items: must be a list");
        assertRefused("{\"items\":[]}", "items: at least one item");
        assertRefused("{\"items\":[1,2,3]}", "items: at most 2 items");
        assertRefused("{\"items\":[5]}", "items[0]: must be an object");
        assertRefused("{\"items\":[{\"messages\":[]}]}", "items[0].id: required");
        assertRefused("{\"items\":[{\"id\":{},\"messages\":[]}]}", "items[0].id: must be a string");
        assertRefused("{\"items\":[{\"id\":1}]}", "items[0].messages: required");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[]}]}", "items[0].messages: at least one");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[{\"content\":\"x\"}]}]}",
                "items[0].messages[0].role: required");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}]}",
                "items[0].messages[0].role: must be 'user' or 'assistant'");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[{\"role\":\"user\"}]}]}",
                "items[0].messages[0].content: required");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"x\"}]}]}]}",
                "items[0].messages[0].content[0].type: required");
        assertRefused("{\"items\":[{\"id\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]}]}",
                "items[0].messages[0].content[0].text: must be a string");
        assertRefused("{\"items\":[{\"id\":1,\"system\":5,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}]}",
                "items[0].system: must be a string or a list");
    }

    @Test
    void refusesBodiesThatAreNotOneJsonObject() {
        assertThatThrownBy(() -> JsonBodies.object(new byte[0])).hasMessageStartingWith("body: empty");
        assertThatThrownBy(() -> JsonBodies.object(bytes("{\"items\":"))).hasMessageStartingWith("body: not valid JSON");
        assertThatThrownBy(() -> JsonBodies.object(bytes("{} {}"))).hasMessageStartingWith("body: not valid JSON");
        assertThatThrownBy(() -> JsonBodies.object(bytes("\"x\""))).hasMessageStartingWith("body: must be a JSON object");
        assertThatThrownBy(() -> JsonBodies.object(new byte[] {(byte) 0xc3, 0x28}))
                .hasMessageStartingWith("body: not valid UTF-8");
        assertThatThrownBy(() -> JsonBodies.object(bytes("[".repeat(5_000) + "]".repeat(5_000))))
                .isInstanceOf(InvalidInputException.class);
    }

    private static void assertRefused(String body, String message) {
        assertThatThrownBy(() -> ScoreRequest.items(JsonBodies.object(bytes(body)), 2))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith(message);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
