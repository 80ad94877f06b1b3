package dev.zerolayer.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SpliceTest {

    @Test
    void replacesOnlyTheNamedBlockAndKeepsTheProse() {
        String doc = "intro\n<!-- bench:a begin -->\nold a\n<!-- bench:a end -->\nmiddle\n<!-- bench:b begin -->\nold b\n"
                + "<!-- bench:b end -->\nend\n";
        String out = Splice.splice(doc, "a", "| new | table |");
        assertThat(out).contains("<!-- bench:a begin -->\n| new | table |\n<!-- bench:a end -->").contains("old b")
                .startsWith("intro\n").endsWith("end\n").doesNotContain("old a");
        // running it again gives the same text (idempotent)
        assertThat(Splice.splice(out, "a", "| new | table |")).isEqualTo(out);
    }

    @Test
    void relativeLinksOfTheGeneratedFileArePrefixedWithItsFolder() {
        assertThat(Splice.rebase("![cdf](proxy/cdf.svg) [a](https://x/y) [b](#here) [c](/abs)", "bench"))
                .isEqualTo("![cdf](bench/proxy/cdf.svg) [a](https://x/y) [b](#here) [c](/abs)");
        assertThat(Splice.rebase("![p](sized/t.svg)", "")).isEqualTo("![p](sized/t.svg)");
    }

    @Test
    void aMissingBlockIsAnErrorNamingIt() {
        assertThatThrownBy(() -> Splice.splice("no markers", "proxy-overhead", "x"))
                .hasMessageContaining("bench:proxy-overhead");
    }
}
