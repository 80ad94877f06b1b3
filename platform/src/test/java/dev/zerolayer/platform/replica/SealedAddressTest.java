package dev.zerolayer.platform.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class SealedAddressTest {

    private static final URI ADDRESS = URI.create("http://10.1.2.3:8080");
    private static final String SHARED = "zla-0123456789abcdefghijklmnopqrstuv";
    private static final String OTHER = "zla-vutsrqponmlkjihgfedcba9876543210";

    @Test
    void peersSharingTheSecretOpenWhatAnotherSealed() {
        String token = SealedAddress.fromSecret(SHARED).seal(ADDRESS);
        assertThat(token).matches("[A-Za-z0-9_-]+").doesNotContain("10.1.2.3");
        assertThat(SealedAddress.fromSecret(SHARED).open(token)).contains(ADDRESS);
        // a fresh nonce each time: two seals of one address differ, and both open
        String again = SealedAddress.fromSecret(SHARED).seal(ADDRESS);
        assertThat(again).isNotEqualTo(token);
        assertThat(SealedAddress.fromSecret(SHARED).open(again)).contains(ADDRESS);
    }

    @Test
    void anotherSecretAnAlteredTokenOrGarbageOpensNothing() {
        SealedAddress seal = SealedAddress.fromSecret(SHARED);
        String token = seal.seal(ADDRESS);
        assertThat(SealedAddress.fromSecret(OTHER).open(token)).isEmpty();
        char last = token.charAt(token.length() - 1);
        assertThat(seal.open(token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A'))).isEmpty();
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
            String token = own.seal(ADDRESS);
            assertThat(own.open(token)).contains(ADDRESS);
            assertThat(SealedAddress.fromSecret(weak).open(token)).as(weak).isEmpty();
        }
    }
}
