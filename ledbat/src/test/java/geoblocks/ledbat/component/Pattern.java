package geoblocks.ledbat.component;

/** Deterministic test payload: byte i of a stream with seed s is a cheap hash of (s, i). */
final class Pattern {
    private Pattern() {}

    static byte at(long seed, long i) {
        long x = (i + seed) * 0x9E3779B97F4A7C15L;
        return (byte) (x >>> 56);
    }

    static byte[] fill(long seed, long offset, int len) {
        byte[] b = new byte[len];
        for (int k = 0; k < len; k++) {
            b[k] = at(seed, offset + k);
        }
        return b;
    }
}
