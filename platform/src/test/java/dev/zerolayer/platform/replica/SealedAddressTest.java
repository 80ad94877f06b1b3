package dev.zerolayer.platform.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class SealedAddressTest {

    private static final URI ADDRESS = URI.create("http://10.1.2.3:8080");

    @Test
    void peersSharingTheSecretOpenWhatAnotherSealed() {
        String token = SealedAddress.fromSecret("shared").seal(ADDRESS);
        assertThat(token).matches("[A-Za-z0-9_-]+").doesNotContain("10.1.2.3");
        assertThat(SealedAddress.fromSecret("shared").open(token)).contains(ADDRESS);
        // a fresh nonce each time: two seals of one address differ, and both open
        String again = SealedAddress.fromSecret("shared").seal(ADDRESS);
        assertThat(again).isNotEqualTo(token);
        assertThat(SealedAddress.fromSecret("shared").open(again)).contains(ADDRESS);
    }

    @Test
    void anotherSecretAnAlteredTokenOrGarbageOpensNothing() {
        SealedAddress seal = SealedAddress.fromSecret("shared");
        String token = seal.seal(ADDRESS);
        assertThat(SealedAddress.fromSecret("other").open(token)).isEmpty();
        char last = token.charAt(token.length() - 1);
        assertThat(seal.open(token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A'))).isEmpty();
        assertThat(seal.open(token.substring(0, 20))).isEmpty();
        assertThat(seal.open("not base64!")).isEmpty();
        assertThat(seal.open("")).isEmpty();
    }

    @Test
    void withoutASecretOnlyThisProcessKeyOpensIt() {
        SealedAddress own = SealedAddress.fromSecret(" ");
        String token = own.seal(ADDRESS);
        assertThat(own.open(token)).contains(ADDRESS);
        assertThat(SealedAddress.fromSecret(" ").open(token)).isEmpty();
        assertThat(SealedAddress.fromSecret("").open(token)).isEmpty();
    }
}
