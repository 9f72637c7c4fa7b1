package geoblocks.net;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address as typed and printed, {@code host:port}: an IPv4 address ({@code 10.0.0.1:47100}), an IPv6
 * address in brackets ({@code [fd31:231::2]:47100}, RFC 3986 section 3.2.2) or a host name. Parsing looks
 * nothing up (a name stays a name; {@link NetAddress#parse} resolves it) and refuses what is ambiguous or
 * malformed with what was typed and what is wrong: an IPv6 address without brackets ({@code ::1:47100} could
 * be {@code ::1} port 47100 or {@code ::1:47100} without a port), brackets around anything but an IPv6
 * address, a missing or non-numeric port. Printing writes an IP address in one spelling, IPv6 in the short
 * form of RFC 5952 ({@code [fd31:231::2]:47100}, never {@code fd31:231:0:0:0:0:0:2:47100}), so one address
 * is one string wherever addresses are compared as text (a cluster layout). Invariant: {@code host} is not
 * empty and has no brackets; a host with a colon is an IPv6 address in that short form; {@code port} is in
 * 0..65535.
 */
public record HostPort(String host, int port) {
    public HostPort {
        if (host == null || host.isEmpty() || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            throw new IllegalArgumentException("host must be a name or an address without brackets, was '" + host + "'");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + port);
        }
        if (host.indexOf(':') >= 0) {
            host = canonicalIpv6(host);
        }
    }

    /** {@code ip} and {@code port}, the ip in the spelling {@link #literal} gives. */
    public static HostPort of(InetAddress ip, int port) {
        return new HostPort(literal(ip), port);
    }

    /** Parses {@code host:port} or {@code [IPv6]:port}; IllegalArgumentException naming the text and what is wrong. */
    public static HostPort parse(String typed) {
        String shape = "address must look like host:port or [IPv6]:port, was '" + typed + "'";
        if (typed == null || typed.isEmpty()) {
            throw new IllegalArgumentException(shape);
        }
        String host;
        String port;
        if (typed.charAt(0) == '[') {
            int close = typed.indexOf(']');
            if (close < 0 || close + 1 >= typed.length() || typed.charAt(close + 1) != ':' || close + 2 == typed.length()) {
                throw new IllegalArgumentException(shape);
            }
            host = typed.substring(1, close);
            port = typed.substring(close + 2);
            if (!isIpv6Literal(host)) {
                throw new IllegalArgumentException("'" + host + "' in brackets is not an IPv6 address (brackets are for"
                        + " IPv6 only) in '" + typed + "'");
            }
        } else {
            int first = typed.indexOf(':');
            int last = typed.lastIndexOf(':');
            if (first != last) {
                String head = typed.substring(0, last);
                String tail = typed.substring(last + 1);
                boolean withPort = isIpv6Literal(head) && !tail.isEmpty() && tail.chars().allMatch(Character::isDigit);
                String as = !withPort ? "[" + typed + "]:PORT"
                        : "[" + head + "]:" + tail + (isIpv6Literal(typed) ? " (or [" + typed + "]:PORT)" : "");
                throw new IllegalArgumentException("an IPv6 address goes in brackets before its port, as " + as + ", was '"
                        + typed + "'");
            }
            if (last <= 0 || last == typed.length() - 1) {
                throw new IllegalArgumentException(shape);
            }
            host = typed.substring(0, last);
            port = typed.substring(last + 1);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + typed + "'");
        }
        if (p < 0 || p > 65_535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + p + " in '" + typed + "'");
        }
        if (host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            throw new IllegalArgumentException(shape);
        }
        return new HostPort(host, p);
    }

    /** Whether the host is an IPv6 address (it prints in brackets). */
    public boolean ipv6() {
        return host.indexOf(':') >= 0;
    }

    /** {@code host:port}, IPv6 in brackets; an IP address in the spelling of {@link #literal}. */
    @Override
    public String toString() {
        return uriHost() + ":" + port;
    }

    /** The host as a URL writes it: an IPv6 address in brackets, anything else as it is. */
    public String uriHost() {
        return ipv6() ? "[" + host + "]" : host;
    }

    /**
     * {@code ip} as text: IPv4 dotted, IPv6 in the short form of RFC 5952 section 4 (lower case, no leading
     * zeros, the longest run of two or more zero groups, the first of equal ones, as {@code ::}), with its
     * {@code %scope} when it has one. No brackets.
     */
    public static String literal(InetAddress ip) {
        if (!(ip instanceof Inet6Address)) {
            return ip.getHostAddress();
        }
        String text = ip.getHostAddress();
        int scope = text.indexOf('%');
        return scope < 0 ? compress(ip.getAddress()) : compress(ip.getAddress()) + text.substring(scope);
    }

    /** The 16 bytes of an IPv6 address in the short form of RFC 5952. */
    private static String compress(byte[] b) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1; // a run must be two groups or longer (RFC 5952 section 4.2.2)
        for (int i = 0; i < 8;) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLen - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }

    /** {@code host} (an IPv6 literal, maybe with a {@code %scope}) in the form of {@link #literal}; else null. */
    private static String ipv6OrNull(String host) {
        if (host.indexOf(':') < 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            return null;
        }
        int pct = host.indexOf('%');
        String addr = pct < 0 ? host : host.substring(0, pct);
        try {
            // in brackets the JDK reads an IPv6 literal or refuses: never a name lookup (the scope is kept
            // aside, as its interface need not exist here)
            InetAddress ip = InetAddress.getByName("[" + addr + "]");
            if (ip instanceof Inet6Address) {
                return compress(ip.getAddress()) + (pct < 0 ? "" : host.substring(pct));
            }
        } catch (UnknownHostException e) {
            // not one
        }
        return null;
    }

    /** {@code host} (an IPv6 literal) in the form of {@link #literal}; IllegalArgumentException if it is none. */
    private static String canonicalIpv6(String host) {
        String c = ipv6OrNull(host);
        if (c == null) {
            throw new IllegalArgumentException("'" + host + "' is not an IPv6 address");
        }
        return c;
    }

    /** Whether {@code s} is an IPv6 address (with an optional {@code %scope}); looks nothing up. */
    static boolean isIpv6Literal(String s) {
        return ipv6OrNull(s) != null;
    }
}
