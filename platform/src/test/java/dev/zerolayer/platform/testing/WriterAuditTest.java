package dev.zerolayer.platform.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.event.Writer;
import org.junit.jupiter.api.Test;

class WriterAuditTest {

    @Test
    void aHandoverToAHigherGenerationIsClean() {
        WriterAudit audit = new WriterAudit();
        audit.record("n1", new Writer("a", 1));
        audit.record("n1", new Writer("a", 1));
        audit.record("n1", new Writer("b", 2));
        audit.record("n1", new Writer("b", 3));
        audit.record("n1", new Writer("a", 5));

        assertThat(audit.violations()).isEmpty();
        assertThat(audit.records()).isEqualTo(5);
        assertThat(audit.lastWriters()).containsEntry("n1", new Writer("a", 5));
    }

    @Test
    void aReplicaWritingOnAfterATakeoverIsCaught() {
        WriterAudit audit = new WriterAudit();
        audit.record("n1", new Writer("a", 1));
        audit.record("n1", new Writer("b", 2));
        audit.record("n1", new Writer("a", 1));

        assertThat(audit.violations()).singleElement().asString().contains("generation went down");
    }

    @Test
    void twoReplicasInOneGenerationAndUnstampedRecordsAreCaught() {
        WriterAudit audit = new WriterAudit();
        audit.record("n1", new Writer("a", 4));
        audit.record("n1", new Writer("b", 4));
        audit.record("n2", null);

        assertThat(audit.violations()).hasSize(2);
    }
}
