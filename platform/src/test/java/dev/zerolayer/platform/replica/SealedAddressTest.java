package dev.zerolayer.platform.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SealedAddressTest {

    private static final URI ADDRESS = URI.create("http://10.1.2.3:8080");
    private static final String SHARED = "zla-0123456789abcdefghijklmnopqrstuv";
    private static final String OTHER = "zla-vutsrqponmlkjihgfedcba9876543210";
    private static final Instant AT = Instant.parse("2026-12-04T20:15:30Z");
    private static final SealedAddress.Sealed SEALED = new SealedAddress.Sealed(ADDRESS, AT);

    @Test
    void peersSharingTheSecretOpenWhatAnotherSealed() {
        String token = SealedAddress.fromSecret(SHARED).seal(ADDRESS, AT);
        assertThat(token).matches("[A-Za-z0-9_-]+").doesNotContain("10.1.2.3");
        assertThat(SealedAddress.fromSecret(SHARED).open(token)).contains(SEALED);
        // a fresh nonce each time: two seals of one address differ, and both open
        String again = SealedAddress.fromSecret(SHARED).seal(ADDRESS, AT);
        assertThat(again).isNotEqualTo(token);
        // the time to the second, before 1970 too
        Instant early = Instant.parse("1969-07-20T20:17:40.900Z");
        assertThat(SealedAddress.fromSecret(SHARED).open(SealedAddress.fromSecret(SHARED).seal(ADDRESS, early)))
                .contains(new SealedAddress.Sealed(ADDRESS, Instant.parse("1969-07-20T20:17:40Z")));
        assertThat(SealedAddress.fromSecret(SHARED).open(again)).contains(SEALED);
    }

    @Test
    void anotherSecretAnAlteredTokenOrGarbageOpensNothing() {
        SealedAddress seal = SealedAddress.fromSecret(SHARED);
        String token = seal.seal(ADDRESS, AT);
        assertThat(SealedAddress.fromSecret(OTHER).open(token)).isEmpty();
        // a character in the middle (all six of its bits count; the last one's low bits may be padding)
        int middle = token.length() / 2;
        char altered = token.charAt(middle) == 'A' ? 'B' : 'A';
        assertThat(seal.open(token.substring(0, middle) + altered + token.substring(middle + 1))).isEmpty();
        assertThat(seal.open(token.substring(0, 20))).isEmpty();
        assertThat(seal.open("not base64!")).isEmpty();
        assertThat(seal.open("")).isEmpty();
    }

    @Test
    void withoutASecretOrWithAShortOneOnlyThisProcessKeyOpensIt() {
        assertThat(SealedAddress.fromSecret(SHARED).shared()).isTrue();
        for (String weak : new String[] {" ", "", "change-me", SHARED.substring(0, SealedAddress.MIN_SECRET - 1)}) {
            SealedAddress own = SealedAddress.fromSecret(weak);
            assertThat(own.shared()).as(weak).isFalse();
            String token = own.seal(ADDRESS, AT);
            assertThat(own.open(token)).contains(SEALED);
            assertThat(SealedAddress.fromSecret(weak).open(token)).as(weak).isEmpty();
        }
    }
}
