package geoblocks.network.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** RFC 5869 Appendix A test vectors for HKDF-SHA256. */
class HkdfTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void extractAndExpand_rfc5869TestCase1_matchesVectors() {
        byte[] ikm = hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
        byte[] salt = hex("000102030405060708090a0b0c");
        byte[] info = hex("f0f1f2f3f4f5f6f7f8f9");

        byte[] prk = Hkdf.extract(salt, ikm);
        assertArrayEquals(hex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"), prk);

        byte[] okm = Hkdf.expand(prk, info, 42);
        assertArrayEquals(hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                + "34007208d5b887185865"), okm);
    }

    @Test
    void extractAndExpand_rfc5869TestCase3EmptySaltAndInfo_matchesVectors() {
        byte[] ikm = hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");

        byte[] prk = Hkdf.extract(new byte[0], ikm);
        assertArrayEquals(hex("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"), prk);

        byte[] okm = Hkdf.expand(prk, new byte[0], 42);
        assertArrayEquals(hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
                + "9d201395faa4b61a96c8"), okm);
    }

    @Test
    void extract_nullSalt_equalsZeroSalt() {
        byte[] ikm = hex("0b0b0b0b");
        assertArrayEquals(Hkdf.extract(new byte[32], ikm), Hkdf.extract(null, ikm));
    }

    @Test
    void expand_shorterLength_isPrefixOfLonger() {
        byte[] prk = Hkdf.extract(null, hex("01020304"));
        byte[] long100 = Hkdf.expand(prk, hex("aa"), 100);
        byte[] short40 = Hkdf.expand(prk, hex("aa"), 40);
        assertArrayEquals(Arrays.copyOf(long100, 40), short40);
        assertEquals(0, Hkdf.expand(prk, null, 0).length);
    }

    @Test
    void expand_tooLongOrShortPrk_isRejected() {
        byte[] prk = new byte[32];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Hkdf.expand(prk, null, Hkdf.MAX_OUTPUT + 1));
        assertEquals(true, e.getMessage().contains("8161"));
        assertThrows(IllegalArgumentException.class, () -> Hkdf.expand(new byte[16], null, 32));
    }
}
