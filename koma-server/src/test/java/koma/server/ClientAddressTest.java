package koma.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link ClientAddress}: the client key of a request (IPv4 address, IPv6 /64), and how far X-Forwarded-For is
 * believed. Addresses are from the documentation ranges (RFC 5737 198.51.100.0/24, 203.0.113.0/24; RFC 3849
 * 2001:db8::/32).
 */
class ClientAddressTest {
    private static final ClientAddress NO_PROXY = new ClientAddress(List.of());
    private static final ClientAddress PROXIES = new ClientAddress(List.of("127.0.0.1", "10.0.0.0/8", "::1",
            "fd00::/8"));

    /** A literal as an address (the JDK parses literals without a lookup). */
    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void ipv4KeyIsTheDottedAddress() {
        assertEquals("203.0.113.7", NO_PROXY.key(ip("203.0.113.7"), null));
        assertEquals("0.0.0.0", NO_PROXY.key(ip("0.0.0.0"), null));
        assertEquals("255.255.255.255", NO_PROXY.key(ip("255.255.255.255"), ""));
    }

    @Test
    void ipv6KeyIsTheSlash64() {
        String a = NO_PROXY.key(ip("2001:db8:1:2::1"), null);
        String b = NO_PROXY.key(ip("2001:db8:1:2:ffff:eeee:dddd:cccc"), null);
        assertEquals("2001:db8:1:2::/64", a);
        assertEquals(a, b, "two addresses of one /64 are one client");
        String other = NO_PROXY.key(ip("2001:db8:1:3::1"), null);
        assertEquals("2001:db8:1:3::/64", other);
        assertNotEquals(a, other, "another /64 is another client");
        // RFC 5952 text: zeros compressed (longest run), hex in lower case, leading zeros dropped
        assertEquals("2001:db8::/64", NO_PROXY.key(ip("2001:DB8:0:0:1:2:3:4"), null));
        assertEquals("2001:0:0:1::/64", NO_PROXY.key(ip("2001:0:0:1:5:6:7:8"), null));
        assertEquals("::/64", NO_PROXY.key(ip("::1"), null));
        assertEquals("fe80::/64", NO_PROXY.key(ip("fe80::1"), null));
    }

    @Test
    void ipv4MappedIpv6IsIpv4() throws UnknownHostException {
        // built from bytes: InetAddress.getByName would already turn ::ffff:a.b.c.d into an Inet4Address
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = (byte) 198;
        mapped[13] = 51;
        mapped[14] = 100;
        mapped[15] = 9;
        InetAddress six = java.net.Inet6Address.getByAddress(null, mapped, -1);
        assertEquals(16, six.getAddress().length);
        assertEquals("198.51.100.9", NO_PROXY.key(six, null));
        // and in X-Forwarded-For
        assertEquals("198.51.100.9", PROXIES.key(ip("127.0.0.1"), "::ffff:198.51.100.9"));
    }

    @Test
    void forwardedForFromAnUntrustedRemoteIsIgnored() {
        // a client that writes X-Forwarded-For itself to look like many clients (or like another one)
        assertEquals("203.0.113.7", NO_PROXY.key(ip("203.0.113.7"), "198.51.100.1"));
        assertEquals("203.0.113.7", PROXIES.key(ip("203.0.113.7"), "198.51.100.1"));
        assertEquals("203.0.113.7", PROXIES.key(ip("203.0.113.7"), "10.0.0.1"), "not even a trusted-looking one");
        assertEquals("2001:db8:9::/64", PROXIES.key(ip("2001:db8:9::5"), "198.51.100.1"));
    }

    @Test
    void forwardedForFromATrustedProxyNamesTheClient() {
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "198.51.100.1"));
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), " 198.51.100.1 "));
        assertEquals("2001:db8:5:6::/64", PROXIES.key(ip("::1"), "2001:db8:5:6::abcd"));
        assertEquals("198.51.100.1", PROXIES.key(ip("10.200.3.4"), "198.51.100.1"), "a CIDR member is trusted");
        assertEquals("198.51.100.1", PROXIES.key(ip("fd12:3456::1"), "198.51.100.1"), "IPv6 CIDR");
        assertEquals("11.0.0.1", PROXIES.key(ip("11.0.0.1"), "198.51.100.1"), "just outside 10.0.0.0/8");
        assertEquals("127.0.0.1", PROXIES.key(ip("127.0.0.1"), null), "no header: the proxy itself");
        assertEquals("127.0.0.1", PROXIES.key(ip("127.0.0.1"), "  "), "blank header: the proxy itself");
        // ports and brackets, as some proxies write them
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "198.51.100.1:4711"));
        assertEquals("2001:db8:5:6::/64", PROXIES.key(ip("127.0.0.1"), "[2001:db8:5:6::1]:443"));
        assertEquals("2001:db8:5:6::/64", PROXIES.key(ip("127.0.0.1"), "[2001:db8:5:6::1]"));
    }

    @Test
    void chainsAreWalkedFromTheRightPastTrustedProxies() {
        // client -> proxy 10.1.1.1 -> proxy 10.2.2.2 -> server (remote 127.0.0.1): each appends its peer
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "198.51.100.1, 10.1.1.1, 10.2.2.2"));
        // the client put a forged entry first: the walk stops at the first untrusted entry from the right
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "203.0.113.66, 198.51.100.1, 10.1.1.1"));
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "10.9.9.9, 198.51.100.1, 10.1.1.1"));
        // every entry a trusted proxy: the leftmost (farthest) is as far as anything is known
        assertEquals("10.1.1.1", PROXIES.key(ip("127.0.0.1"), "10.1.1.1, 10.2.2.2"));
        // a chain of many: only the last MAX_HOPS entries are looked at
        StringBuilder many = new StringBuilder("198.51.100.1");
        for (int i = 0; i < 100; i++) {
            many.append(", 10.0.0.").append(i);
        }
        String key = PROXIES.key(ip("127.0.0.1"), many.toString());
        assertTrue(key.startsWith("10.0.0."), key);
    }

    @Test
    void everyForwardedForLineCounts() {
        // the client forged a line, its proxy added one of its own (HAProxy does): the last line names the client
        assertEquals("198.51.100.1", PROXIES.keyOfLines(ip("127.0.0.1"), List.of("203.0.113.9", "198.51.100.1")));
        assertEquals("198.51.100.1", PROXIES.keyOfLines(ip("127.0.0.1"), List.of("203.0.113.9, 198.51.100.1",
                "10.1.1.1")));
        assertEquals("127.0.0.1", PROXIES.keyOfLines(ip("127.0.0.1"), List.of()));
        assertEquals("127.0.0.1", PROXIES.keyOfLines(ip("127.0.0.1"), null));
        assertEquals("203.0.113.7", PROXIES.keyOfLines(ip("203.0.113.7"), List.of("198.51.100.1")));
    }

    @Test
    void garbageInForwardedForStopsAtTheLastTrustedHop() {
        for (String bad : List.of("unknown", "_hidden", "example.com", "1.2.3", "1.2.3.256", "1.2.3.4.5", "::1::2",
                "2001:db8::1%eth0", "12345::", "[198.51.100.1]", "198.51.100.1:port", "<script>", "", "1.2.3.04444")) {
            assertEquals("127.0.0.1", PROXIES.key(ip("127.0.0.1"), bad), bad);
        }
        // the rightmost entry is fine, the one before it is garbage: the rightmost is the client
        assertEquals("198.51.100.1", PROXIES.key(ip("127.0.0.1"), "garbage, 198.51.100.1"));
        // garbage behind a trusted proxy: that proxy is the last trusted hop
        assertEquals("10.1.1.1", PROXIES.key(ip("127.0.0.1"), "198.51.100.1, garbage, 10.1.1.1"));
        assertEquals("127.0.0.1", PROXIES.key(ip("127.0.0.1"), "198.51.100.1,,"), "an empty entry is garbage too");
    }

    @Test
    void literalsAreParsedByHandWithoutLookup() {
        assertArrayEquals(new byte[]{(byte) 203, 0, 113, 7}, ClientAddress.parseLiteral("203.0.113.7"));
        assertArrayEquals(ip("2001:db8::1").getAddress(), ClientAddress.parseLiteral("2001:db8::1"));
        assertArrayEquals(ip("::").getAddress(), ClientAddress.parseLiteral("::"));
        assertArrayEquals(ip("1:2:3:4:5:6:7:8").getAddress(), ClientAddress.parseLiteral("1:2:3:4:5:6:7:8"));
        assertArrayEquals(ip("1:2:3:4:5:6:7::").getAddress(), ClientAddress.parseLiteral("1:2:3:4:5:6:7::"));
        assertArrayEquals(ip("::2:3:4:5:6:7:8").getAddress(), ClientAddress.parseLiteral("::2:3:4:5:6:7:8"));
        assertEquals(16, ClientAddress.parseLiteral("::ffff:1.2.3.4").length);
        assertEquals(16, ClientAddress.parseLiteral("0:0:0:0:0:ffff:1.2.3.4").length);
        // a name is never looked up: it is simply not an address
        assertNull(ClientAddress.parseLiteral("localhost"));
        assertNull(ClientAddress.parseLiteral("1:2:3:4:5:6:7:8:9"));
        assertNull(ClientAddress.parseLiteral("1::2::3"));
        assertNull(ClientAddress.parseLiteral("1:2:3:4:5:6:7::8"), "'::' must stand for at least one group");
        assertNull(ClientAddress.parseLiteral("::1.2.3.4:5"));
        assertNull(ClientAddress.parseLiteral("g::1"));
        assertNull(ClientAddress.parseLiteral("1.2.3.-4"));
        assertNull(ClientAddress.parseLiteral("+1.2.3.4"));
        assertNull(ClientAddress.parseLiteral("１.2.3.4"), "full-width digits are not digits here");
    }

    @Test
    void trustedRangesMatchByPrefix() {
        ClientAddress c = new ClientAddress(List.of("192.0.2.128/25", "2001:db8:ab00::/40", "0.0.0.0/0"));
        assertTrue(c.trusted(ip("192.0.2.200")));
        assertTrue(c.trusted(ip("8.8.8.8")), "0.0.0.0/0 is every IPv4 address");
        assertTrue(c.trusted(ip("2001:db8:abff::1")));
        assertFalse(c.trusted(ip("2001:db8:ac00::1")));
        ClientAddress narrow = new ClientAddress(List.of("192.0.2.128/25"));
        assertFalse(narrow.trusted(ip("192.0.2.127")));
        assertTrue(narrow.trusted(ip("192.0.2.128")));
        assertFalse(narrow.trusted(ip("2001:db8::1")), "an IPv4 range holds no IPv6 address");
        assertFalse(new ClientAddress(null).trusted(ip("127.0.0.1")), "null trusts nobody");
    }

    @Test
    void badConfigEntryIsNamed() {
        for (String bad : List.of("x", "10.0.0.0/33", "::1/129", "10.0.0.0/", "10.0.0.0/-1", "proxy.example.com",
                "10.0.0/8", "fd00::/8/8", "2001:db8::1%eth0")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ClientAddress(List.of("127.0.0.1", bad)));
            assertEquals("--trusted-proxy: '" + bad + "' is not an address or CIDR range", e.getMessage());
        }
        // the forms of the brief are accepted
        new ClientAddress(List.of("10.0.0.0/8", "::1", "fd00::/8", "127.0.0.1", " 192.0.2.1 ", "::/0"));
    }
}
