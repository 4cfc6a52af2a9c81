package koma.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who a request comes from, as the key of rate limits and per-client caps: an IPv4 address ({@code 203.0.113.7})
 * or an IPv6 /64 prefix ({@code 2001:db8:1:2::/64}; one subscriber usually holds a whole /64, so counting single
 * IPv6 addresses would let one client take 2^64 keys). {@code X-Forwarded-For} is believed only when the
 * connection comes from a configured trusted proxy, and then only as far as the chain of trusted proxies goes.
 * Addresses are parsed as literals only: no name is ever resolved.
 */
public final class ClientAddress {
    /** Most {@code X-Forwarded-For} entries looked at; a longer chain is cut to its last ones. */
    static final int MAX_HOPS = 32;

    /** An address range: the address as 16 bytes (IPv4 mapped into IPv6) and the prefix length over those. */
    private record Range(byte[] address, int prefix) {
        boolean contains(byte[] a16) {
            int full = prefix / 8, rest = prefix % 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != a16[i]) {
                    return false;
                }
            }
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (a16[full] & mask);
        }
    }

    private final List<Range> trusted;

    /**
     * @param trustedProxies addresses or CIDR ranges ({@code 10.0.0.0/8}, {@code ::1}, {@code fd00::/8}) whose
     *                       {@code X-Forwarded-For} is believed; null or empty trusts nobody
     * @throws IllegalArgumentException naming the first entry that is not an address or CIDR range
     */
    public ClientAddress(List<String> trustedProxies) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : trustedProxies == null ? List.<String>of() : trustedProxies) {
            Range r = entry == null ? null : range(entry.strip());
            if (r == null) {
                throw new IllegalArgumentException("--trusted-proxy: '" + entry + "' is not an address or CIDR range");
            }
            ranges.add(r);
        }
        trusted = List.copyOf(ranges);
    }

    /** Parses {@code addr} or {@code addr/prefix}; null when malformed. */
    private static Range range(String entry) {
        int slash = entry.indexOf('/');
        String addr = slash < 0 ? entry : entry.substring(0, slash);
        byte[] bytes = parseLiteral(addr);
        if (bytes == null) {
            return null;
        }
        int bits = bytes.length * 8, prefix = bits;
        if (slash >= 0) {
            String p = entry.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            prefix = Integer.parseInt(p);
            if (prefix > bits) {
                return null;
            }
        }
        // an IPv4 range is kept as the IPv4-mapped IPv6 range, so one comparison serves both families
        return bytes.length == 4 ? new Range(to16(bytes), prefix + 96) : new Range(bytes, prefix);
    }

    /** True when the address is one of the trusted proxies. */
    public boolean trusted(InetAddress a) {
        byte[] a16 = to16(a.getAddress());
        for (Range r : trusted) {
            if (r.contains(a16)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client key of a request: {@code remote} itself unless it is a trusted proxy carrying
     * {@code X-Forwarded-For}; then the entries are walked from the right (the one the nearest proxy appended)
     * past every trusted proxy, and the first untrusted one is the client. A malformed entry ends the walk at
     * the last trusted hop reached (the remote when the malformed entry is the last one): what a proxy says about
     * a hop it could not name is not believed. When every entry is a trusted proxy, the leftmost one is the client.
     *
     * @param xForwardedFor every {@code X-Forwarded-For} header line of the request, in order, joined with ", "
     *                      (some proxies, HAProxy's {@code option forwardfor} for one, add a line of their own
     *                      instead of appending to the client's; the first line alone would be the client's forgery)
     */
    public String key(InetAddress remote, String xForwardedFor) {
        Objects.requireNonNull(remote, "remote");
        InetAddress client = remote;
        if (xForwardedFor != null && !xForwardedFor.isBlank() && trusted(remote)) {
            String[] hops = xForwardedFor.split(",", -1);
            int stop = Math.max(0, hops.length - MAX_HOPS);
            for (int i = hops.length - 1; i >= stop; i--) {
                InetAddress hop = parseHop(hops[i].strip());
                if (hop == null) {
                    break;
                }
                client = hop;
                if (!trusted(hop)) {
                    break;
                }
            }
        }
        return keyOf(client);
    }

    /**
     * {@link #key(InetAddress, String)} of a request with any number of {@code X-Forwarded-For} lines (in their
     * order, e.g. {@code Collections.list(request.getHeaders("X-Forwarded-For"))}); none: an empty list or null.
     */
    public String keyOfLines(InetAddress remote, List<String> xForwardedForLines) {
        return key(remote, xForwardedForLines == null || xForwardedForLines.isEmpty() ? null
                : String.join(", ", xForwardedForLines));
    }

    /**
     * The key of one address: IPv4 (also IPv4-mapped IPv6) as dotted text, any other IPv6 address as its /64
     * prefix in RFC 5952 form ({@code 2001:db8:1:2::/64}).
     */
    public static String keyOf(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 16 && isMapped(b)) {
            b = java.util.Arrays.copyOfRange(b, 12, 16);
        }
        if (b.length == 4) {
            return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 4; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        return format6(groups) + "/64";
    }

    /** RFC 5952 text of eight groups: lower-case hex, the longest run (two or more) of zero groups as "::". */
    private static String format6(int[] g) {
        int bestStart = -1, bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /**
     * One {@code X-Forwarded-For} entry as an address: a literal, optionally in brackets or with a port
     * ({@code 203.0.113.7:4711}, {@code [2001:db8::1]:443}), as some proxies write; null when malformed
     * ({@code unknown}, an obfuscated identifier, a host name, garbage).
     */
    static InetAddress parseHop(String s) {
        if (s.isEmpty() || s.length() > 64) {
            return null;
        }
        String literal = s;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0 || !(close == s.length() - 1 || isPort(s, close + 1))) {
                return null;
            }
            literal = s.substring(1, close);
            if (literal.indexOf(':') < 0) {
                return null; // brackets are for IPv6 only
            }
        } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':') && s.indexOf('.') >= 0) {
            int colon = s.indexOf(':');
            if (!isPort(s, colon)) {
                return null;
            }
            literal = s.substring(0, colon); // IPv4 with a port
        }
        byte[] b = parseLiteral(literal);
        return b == null ? null : address(b);
    }

    /** True when {@code s} from {@code at} is ":" and 1 to 5 digits. */
    private static boolean isPort(String s, int at) {
        if (at >= s.length() || s.charAt(at) != ':' || s.length() - at - 1 < 1 || s.length() - at - 1 > 5) {
            return false;
        }
        return s.substring(at + 1).chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The address of raw bytes; never a name lookup ({@link InetAddress#getByAddress(byte[])} does none). */
    private static InetAddress address(byte[] b) {
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only for a wrong length, which parseLiteral never gives
        }
    }

    /**
     * The bytes of an IPv4 (4 bytes) or IPv6 (16 bytes) literal, or null when {@code s} is not one. IPv4 is four
     * decimal parts of 1 to 3 digits, each at most 255; IPv6 is up to eight groups of 1 to 4 hex digits with at
     * most one "::", optionally ending in an IPv4 part; a zone ({@code %eth0}) is refused.
     */
    static byte[] parseLiteral(String s) {
        if (s == null || s.isEmpty() || s.length() > 45) {
            return null;
        }
        return s.indexOf(':') >= 0 ? parse6(s) : parse4(s);
    }

    private static byte[] parse4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            b[i] = (byte) v;
        }
        return b;
    }

    private static byte[] parse6(String s) {
        int dc = s.indexOf("::");
        if (dc >= 0 && s.indexOf("::", dc + 1) >= 0) {
            return null; // two "::"
        }
        List<Integer> head = new ArrayList<>(), tail = new ArrayList<>();
        if (dc >= 0) {
            if (!groups(s.substring(0, dc), head, false) || !groups(s.substring(dc + 2), tail, true)) {
                return null;
            }
            if (head.size() + tail.size() > 7) {
                return null; // "::" stands for at least one zero group
            }
        } else if (!groups(s, head, true) || head.size() != 8) {
            return null;
        }
        byte[] b = new byte[16];
        for (int i = 0; i < head.size(); i++) {
            b[2 * i] = (byte) (head.get(i) >> 8);
            b[2 * i + 1] = (byte) (int) head.get(i);
        }
        for (int i = 0; i < tail.size(); i++) {
            int at = 8 - tail.size() + i;
            b[2 * at] = (byte) (tail.get(i) >> 8);
            b[2 * at + 1] = (byte) (int) tail.get(i);
        }
        return b;
    }

    /**
     * Appends the 16-bit groups of a colon-separated run (empty allowed) to {@code out}; the last part may be an
     * IPv4 literal (two groups) when {@code ipv4Tail}. False when malformed.
     */
    private static boolean groups(String run, List<Integer> out, boolean ipv4Tail) {
        if (run.isEmpty()) {
            return true;
        }
        String[] parts = run.split(":", -1);
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (ipv4Tail && i == parts.length - 1 && p.indexOf('.') >= 0) {
                byte[] v4 = parse4(p);
                if (v4 == null) {
                    return false;
                }
                out.add(((v4[0] & 0xff) << 8) | (v4[1] & 0xff));
                out.add(((v4[2] & 0xff) << 8) | (v4[3] & 0xff));
                continue;
            }
            if (p.isEmpty() || p.length() > 4) {
                return false;
            }
            int v = 0;
            for (int k = 0; k < p.length(); k++) {
                int d = Character.digit(p.charAt(k), 16);
                if (d < 0) {
                    return false;
                }
                v = v * 16 + d;
            }
            out.add(v);
        }
        return out.size() <= 8;
    }

    /** True for ::ffff:a.b.c.d. */
    private static boolean isMapped(byte[] b16) {
        for (int i = 0; i < 10; i++) {
            if (b16[i] != 0) {
                return false;
            }
        }
        return b16[10] == (byte) 0xff && b16[11] == (byte) 0xff;
    }

    /** An address as 16 bytes: IPv4 as IPv4-mapped IPv6. */
    private static byte[] to16(byte[] b) {
        if (b.length == 16) {
            return b;
        }
        byte[] out = new byte[16];
        out[10] = (byte) 0xff;
        out[11] = (byte) 0xff;
        System.arraycopy(b, 0, out, 12, 4);
        return out;
    }
}
