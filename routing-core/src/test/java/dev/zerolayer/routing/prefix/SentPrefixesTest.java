package dev.zerolayer.routing.prefix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A node is assumed to hold the leading blocks of the chains it was sent, for a time, within a per-node budget. */
class SentPrefixesTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void aNodeHoldsTheLeadingBlocksOfWhatItServedAndNothingAfterAGap() {
        SentPrefixes sent = new SentPrefixes(60_000, 512, 1_000, now::get);

        sent.served("a", new long[] {1, 2, 3});

        assertThat(sent.leadingBlocks("a", new long[] {1, 2, 3, 4})).isEqualTo(3);
        assertThat(sent.leadingBlocks("a", new long[] {1, 2, 9, 3})).isEqualTo(2);
        assertThat(sent.leadingBlocks("a", new long[] {2, 3})).isEqualTo(2);
        assertThat(sent.leadingBlocks("a", new long[] {9, 1})).isZero();
        assertThat(sent.leadingBlocks("b", new long[] {1, 2, 3})).isZero();
    }

    @Test
    void anAssumptionRunsOutAfterItsTimeToLiveUnlessTheBlocksAreSentAgain() {
        SentPrefixes sent = new SentPrefixes(10_000, 512, 1_000, now::get);
        sent.served("a", new long[] {1, 2, 3});

        now.addAndGet(6_000);
        sent.served("a", new long[] {1, 2});
        now.addAndGet(6_000);

        assertThat(sent.leadingBlocks("a", new long[] {1, 2, 3})).isEqualTo(2);
        now.addAndGet(5_000);
        assertThat(sent.leadingBlocks("a", new long[] {1, 2, 3})).isZero();
    }

    @Test
    void theLeastRecentlySentBlocksGoFirstWhenANodesBudgetIsFull() {
        SentPrefixes sent = new SentPrefixes(60_000, 2, 4, now::get);

        sent.served("a", new long[] {1, 2, 3});
        sent.served("a", new long[] {5, 6});
        sent.served("a", new long[] {1, 7});

        assertThat(sent.leadingBlocks("a", new long[] {1, 2, 3})).as("3 beyond the per-prompt limit, 2 evicted")
                .isEqualTo(1);
        assertThat(sent.leadingBlocks("a", new long[] {5, 6})).isEqualTo(2);
        assertThat(sent.leadingBlocks("a", new long[] {1, 7})).isEqualTo(2);
        assertThat(sent.size()).isEqualTo(4);
        sent.forget("a");
        assertThat(sent.leadingBlocks("a", new long[] {1, 7})).isZero();
    }

    @Test
    void sizesAndTimeToLiveMustBePositive() {
        assertThatThrownBy(() -> new SentPrefixes(0, 1, 1, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SentPrefixes(1, 1, 0, now::get)).isInstanceOf(IllegalArgumentException.class);
    }
}
