package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scorer's input is plain data: nulls become empty, wire roles parse leniently, the latest user turn is found. */
class ConversationTest {

    @Test
    void nullsBecomeEmpty() {
        Conversation c = new Conversation(null, Arrays.asList(Turn.user(null), null, new Turn(null, "x")));
        assertThat(c.system()).isEmpty();
        assertThat(c.turns()).hasSize(2);
        assertThat(c.turns().get(0).text()).isEmpty();
        assertThat(c.turns().get(1).role()).isEqualTo(Role.USER);
        assertThat(c.totalChars()).isEqualTo(1);
    }

    @Test
    void theTurnListIsACopy() {
        List<Turn> turns = new ArrayList<>(List.of(Turn.user("a")));
        Conversation c = new Conversation("", turns);
        turns.add(Turn.user("b"));
        assertThat(c.turns()).hasSize(1);
    }

    @Test
    void wireRolesParseLeniently() {
        assertThat(Role.parse("assistant")).isEqualTo(Role.ASSISTANT);
        assertThat(Role.parse(" Model ")).isEqualTo(Role.ASSISTANT);
        assertThat(Role.parse("tool")).isEqualTo(Role.TOOL);
        assertThat(Role.parse("user")).isEqualTo(Role.USER);
        assertThat(Role.parse("developer")).isEqualTo(Role.USER);
        assertThat(Role.parse(null)).isEqualTo(Role.USER);
    }

    @Test
    void theLatestUserTurnIsFound() {
        Conversation c = new Conversation("sys", List.of(Turn.user("q1"), Turn.assistant("a1"), Turn.user("q2"),
                Turn.assistant("prefill")));
        assertThat(c.latestUserIndex()).isEqualTo(2);
        assertThat(new Conversation("", List.of(Turn.assistant("only"))).latestUserIndex()).isEqualTo(-1);
    }
}
