package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Typing and printing addresses: IPv4 as {@code a.b.c.d:port}, IPv6 in brackets, {@code [::1]:port}. */
class NetAddressTest {
    @Test
    void parse_ipv4_readsHostAndPort_andPrintsTheSame() throws Exception {
        NetAddress a = NetAddress.parse("10.231.0.1:47100");
        assertEquals(InetAddress.getByName("10.231.0.1"), a.getIp());
        assertEquals(47100, a.getPort());
        assertEquals("10.231.0.1:47100", a.toString());
    }

    @Test
    void parse_bracketedIpv6_readsHostAndPort() throws Exception {
        NetAddress a = NetAddress.parse("[fd31:231::2]:47100");
        assertEquals(InetAddress.getByName("fd31:231::2"), a.getIp());
        assertEquals(47100, a.getPort());
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
        "[::1]:47100, [::1]:47100",
        "[fd31:231::2]:47100, [fd31:231::2]:47100",
        "[FD31:0231:0000:0000:0000:0000:0000:0002]:1, [fd31:231::2]:1",
        // RFC 5952 section 4.2.2: a single zero group is not shortened; 4.2.3: the first of two equal runs
        "[2001:db8:0:1:1:1:1:1]:2, [2001:db8:0:1:1:1:1:1]:2",
        "[2001:db8:0:0:1:0:0:1]:3, [2001:db8::1:0:0:1]:3",
        "[2001:0:0:1:0:0:0:1]:4, [2001:0:0:1::1]:4",
        "[::]:5, [::]:5",
        "[1::]:6, [1::]:6",
    })
    void ipv6_printsBracketed_inTheShortFormOfRfc5952(String typed, String printed) {
        assertEquals(printed, NetAddress.parse(typed).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.231.0.1:47100", "[::1]:47100", "[fd31:231::2]:1", "127.0.0.1:0"})
    void whatIsPrinted_parsesBackToTheSameAddress(String typed) {
        NetAddress a = NetAddress.parse(typed);
        assertEquals(a, NetAddress.parse(a.toString()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "::1:47100|an IPv6 address goes in brackets before its port, as [::1]:47100",
        "fd31:231::2:47100|an IPv6 address goes in brackets before its port, as [fd31:231::2]:47100",
        "fd31:231::2|an IPv6 address goes in brackets before its port, as [fd31:231::2]:PORT",
        "fd31:231::2:7000|as [fd31:231::2]:7000 (or [fd31:231::2:7000]:PORT)",
        "[fd31:231::2]|address must look like host:port or [IPv6]:port",
        "[fd31:231::2:47100|address must look like host:port or [IPv6]:port",
        "[fd31:231::2]47100|address must look like host:port or [IPv6]:port",
        "[fd31::zz]:47100|'fd31::zz' in brackets is not an IPv6 address",
        "[10.0.0.1]:47100|'10.0.0.1' in brackets is not an IPv6 address",
        "[::1]:70000|port must be in 0..65535",
        "[::1]:http|port is not a number",
        "10.0.0.1|address must look like host:port or [IPv6]:port",
    })
    void malformed_isRefused_withWhatIsWrong(String typed, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetAddress.parse(typed));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().contains("'" + typed + "'"), "names what was typed: " + e.getMessage());
    }
}
