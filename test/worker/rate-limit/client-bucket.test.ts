import { describe, expect, it } from "vitest";
import { clientBucket, UNKNOWN_CLIENT } from "../../../worker/rate-limit/client-bucket.js";

describe("clientBucket", () => {
  it.each([
    ["an IPv4 address", "203.0.113.7", "203.0.113.7"],
    ["an IPv4 address with leading zeros", "203.000.113.007", "203.0.113.7"],
    ["a full IPv6 address", "2001:0db8:0001:0002:0003:0004:0005:0006", "2001:db8:1:2::/64"],
    ["a compressed IPv6 address", "2001:db8:1:2::42", "2001:db8:1:2::/64"],
    ["an upper-case IPv6 address", "2001:DB8:1:2::AB", "2001:db8:1:2::/64"],
    ["an address compressed in its prefix", "2001:db8::1", "2001:db8:0:0::/64"],
    ["the IPv6 loopback", "::1", "0:0:0:0::/64"],
    ["an IPv4-mapped IPv6 address", "::ffff:198.51.100.9", "198.51.100.9"],
    ["an IPv6 address with an IPv4 tail", "2001:db8:1:2:3:4:1.2.3.4", "2001:db8:1:2::/64"],
  ])("buckets %s by itself or its /64", (_name, address, bucket) => {
    expect(clientBucket(address)).toBe(bucket);
  });

  it("puts two addresses of one IPv6 /64 in one bucket", () => {
    expect(clientBucket("2001:db8:aa:bb:1::1")).toBe(clientBucket("2001:db8:aa:bb:ffff::2"));
  });

  it("keeps neighbouring /64s apart", () => {
    expect(clientBucket("2001:db8:aa:bb::1")).not.toBe(clientBucket("2001:db8:aa:bc::1"));
  });

  it.each([
    ["no header", null],
    ["an empty header", ""],
    ["a host name", "example.com"],
    ["an out-of-range IPv4 octet", "256.1.1.1"],
    ["a list (as in X-Forwarded-For)", "203.0.113.7, 10.0.0.1"],
    ["two ::", "2001::1::2"],
    ["nine groups", "1:2:3:4:5:6:7:8:9"],
    ["an IPv6 address with a zone", "fe80::1%eth0"],
    ["an IPv4 part in the middle", "::1.2.3.4:1"],
    ["an over-long value", "1".repeat(46)],
  ])("counts %s under the shared unknown bucket", (_name, address) => {
    expect(clientBucket(address)).toBe(UNKNOWN_CLIENT);
  });
});
