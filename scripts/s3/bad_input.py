#!/usr/bin/env python3
"""Sends a geoblocks S3 gateway bad input and checks each gets a clear error (used by S3GatewayIT).

Usage: bad_input.py ENDPOINT HEAD_TIMEOUT_S BODY_GRACE_S SPOOL_DIR
Malformed XML, a body shorter or longer than its Content-Length, a bad Content-Length, oversize headers,
path traversal in keys, subresources of calls not served, unsigned writes, Signature V2, a slow-loris head and a slow-loris body (whose
spool file in SPOOL_DIR, the node's s3-spool directory, must be removed); then the node still serves.
The node runs with geoblocks.http.head-timeout = HEAD_TIMEOUT_S, body-grace = BODY_GRACE_S and the
default body-min-rate (1 KiB/s).
"""
import os
import socket
import sys
import time
from urllib.parse import urlparse

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.credentials
from botocore.config import Config

ENDPOINT = sys.argv[1]
HEAD_TIMEOUT = float(sys.argv[2])
BODY_GRACE = float(sys.argv[3])
SPOOL_DIR = sys.argv[4]
HOST = urlparse(ENDPOINT).hostname
PORT = urlparse(ENDPOINT).port
CREDS = botocore.credentials.Credentials("geoblocks-demo", "geoblocks-local-demo-secret")
s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key,
                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"))


def signed_head(method, path, headers, payload_hash="UNSIGNED-PAYLOAD", body=b""):
    """The request head (bytes) of a SigV4-signed request; the body is sent separately (over plain http
    botocore signs the SHA-256 of body, which a body sent in full must then match)."""
    h = dict(headers)
    h["x-amz-content-sha256"] = payload_hash
    req = botocore.awsrequest.AWSRequest(method=method, url=ENDPOINT + path, headers=h, data=body)
    botocore.auth.S3SigV4Auth(CREDS, "s3", "us-east-1").add_auth(req)
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: %s:%d" % (HOST, PORT)]
    lines += ["%s: %s" % (k, v) for k, v in req.headers.items() if k.lower() != "host"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def exchange(raw, body=b"", shut=False, timeout=10):
    """Sends raw bytes; returns everything the server answered until it closed or went quiet."""
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    s.sendall(raw + body)
    if shut:
        s.shutdown(socket.SHUT_WR)
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
            if b"\r\n\r\n" in out and not shut:
                head, _, rest = out.partition(b"\r\n\r\n")
                length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                if length and len(rest) >= length[0]:
                    break
    except socket.timeout:
        pass
    s.close()
    return out


def until_closed(s):
    """Everything the server sends on socket s until it closes the connection."""
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return out
        out += chunk


def spooled():
    """The request-body spool files in the node's spool directory."""
    return {f for f in os.listdir(SPOOL_DIR) if f.startswith("body-")} if os.path.isdir(SPOOL_DIR) else set()


def not_stored(key):
    try:
        s3.head_object(Bucket="it-bad", Key=key)
        raise AssertionError("%s was stored" % key)
    except s3.exceptions.ClientError as e:
        assert e.response["Error"]["Code"] == "404", e.response


def status(resp):
    return int(resp.split(b" ", 2)[1]) if resp.startswith(b"HTTP/1.1 ") else None


def check(name, resp, code, text):
    assert status(resp) == code and text.encode() in resp, "%s: expected %d %s, got %r" % (name, code, text, resp[:400])
    print("ok", name, code, text, flush=True)


s3.create_bucket(Bucket="it-bad")

# malformed XML, in CreateBucket and CompleteMultipartUpload bodies
body = b"<CreateBucketConfiguration><LocationConstraint>dublin"
check("malformed-xml-create", exchange(signed_head("PUT", "/it-bad2", {"Content-Length": str(len(body))}, body=body),
                                       body), 400, "MalformedXML")
# a signed small body is the one its signature names: a captured PutBucketPolicy replayed with another body is refused
pol = b'{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::it-bad/x/*"}]}'
evil = b'{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::it-bad/*"}]}'
check("replayed-small-body", exchange(signed_head("PUT", "/it-bad?policy", {"Content-Length": str(len(evil))}, body=pol),
                                      evil), 400, "XAmzContentSHA256Mismatch")
expect_no_policy = exchange(signed_head("GET", "/it-bad?policy", {}))
assert b"NoSuchBucketPolicy" in expect_no_policy, expect_no_policy[:300]
up = s3.create_multipart_upload(Bucket="it-bad", Key="mp")["UploadId"]
for bad in (b"<CompleteMultipartUpload><Part>", b"not xml at all",
            b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><CompleteMultipartUpload>&e;</CompleteMultipartUpload>',
            b"<CompleteMultipartUpload><Part><PartNumber>0</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>"):
    check("malformed-xml-complete", exchange(signed_head("POST", "/it-bad/mp?uploadId=" + up,
                                                         {"Content-Length": str(len(bad))}, body=bad), bad), 400, "MalformedXML")
s3.abort_multipart_upload(Bucket="it-bad", Key="mp", UploadId=up)

# subresources of calls the gateway does not serve are NotImplemented and change nothing: not served as the
# call without them (a DELETE ?metadataTable is no DeleteBucket, a PUT KEY?renameObject no PutObject, a
# DELETE KEY?annotation no DeleteObject)
s3.create_bucket(Bucket="it-bad-empty")
s3.put_object(Bucket="it-bad", Key="kept", Body=b"kept")
for method, path, headers in (("DELETE", "/it-bad-empty?metadataTable", {}),
                              ("DELETE", "/it-bad-empty?metadataConfiguration", {}),
                              ("GET", "/it-bad-empty?session", {}),
                              ("PUT", "/it-bad-empty?metadataJournalTable", {"Content-Length": "0"}),
                              ("GET", "/it-bad-empty?abac", {}),
                              ("PUT", "/it-bad/kept?renameObject", {"Content-Length": "0", "x-amz-rename-source": "/it-bad/x"}),
                              ("PUT", "/it-bad/kept?encryption", {"Content-Length": "0"}),
                              ("DELETE", "/it-bad/kept?annotation", {})):
    check("unsupported-%s-%s" % (method, path.split("?")[1]), exchange(signed_head(method, path, headers)), 501,
          "NotImplemented")
s3.head_bucket(Bucket="it-bad-empty")
assert s3.get_object(Bucket="it-bad", Key="kept")["Body"].read() == b"kept"
s3.delete_bucket(Bucket="it-bad-empty")
print("ok unsupported-subresources-change-nothing", flush=True)

# a body shorter than its Content-Length, then the client half-closes: the server reads the end of its
# input, which closes the connection (no half-closed connections), so there is no one to answer
resp = exchange(signed_head("PUT", "/it-bad/short", {"Content-Length": "100"}), b"0123456789", shut=True)
assert resp == b"", "expected the connection closed without an answer, got %r" % resp[:300]
not_stored("short")
print("ok truncated-body-closed-not-stored", flush=True)
# a body shorter than its Content-Length from a client that then waits: RequestTimeout once the body's
# grace is over (S3 answers the same), and nothing is stored
start = time.monotonic()
resp = exchange(signed_head("PUT", "/it-bad/short-wait", {"Content-Length": "100"}), b"0123456789",
                timeout=BODY_GRACE + 10)
waited = time.monotonic() - start
check("short-body-waits", resp, 400, "<Code>RequestTimeout</Code>")
assert BODY_GRACE <= waited < BODY_GRACE + 5, "answered after %.1f s (grace %.1f s)" % (waited, BODY_GRACE)
not_stored("short-wait")
# a body longer than its Content-Length: the object is the announced bytes and is answered; the bytes
# beyond are read as the next request, which is not one (InvalidArgument), and the connection closes
s = socket.create_connection((HOST, PORT), timeout=10)
s.sendall(signed_head("PUT", "/it-bad/long", {"Content-Length": "5"}, body=b"hello") + b"hello")
first = b""
while b"\r\n\r\n" not in first:
    first += s.recv(65536)
assert first.startswith(b"HTTP/1.1 200 "), first[:400]
s.sendall(b"GARBAGE\r\n\r\n")
rest = first.partition(b"\r\n\r\n")[2] + until_closed(s)
s.close()
check("long-body-rest", rest, 400, "<Code>InvalidArgument</Code>")
assert s3.get_object(Bucket="it-bad", Key="long")["Body"].read() == b"hello"
print("ok long-body-stores-the-announced-bytes", flush=True)
check("bad-content-length", exchange(b"PUT /it-bad/x HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n"), 400,
      "<Code>InvalidArgument</Code><Message>malformed request: Content-Length value is not a number: abc</Message>")
check("missing-content-length", exchange(signed_head("PUT", "/it-bad/chunked", {"Transfer-Encoding": "chunked"}),
                                         b"3\r\nabc\r\n0\r\n\r\n"), 411, "MissingContentLength")
check("too-large", exchange(signed_head("PUT", "/it-bad/huge", {"Content-Length": str(1 << 50), "Expect": "100-continue"})),
      400, "EntityTooLarge")

# oversize headers
check("oversize-headers", exchange(b"GET /it-bad/x HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"), 431, "")

# path traversal in keys, raw and percent-encoded
for path in ("/it-bad/../../etc/passwd", "/it-bad/a/%2E%2E/b", "/it-bad/./x", "/it-bad/a%5Cb"):
    check("traversal " + path, exchange(("GET %s HTTP/1.1\r\nHost: h\r\n\r\n" % path).encode()), 400, "InvalidArgument")
    check("traversal-put " + path, exchange(signed_head("PUT", path, {"Content-Length": "1"}), b"x"), 400, "InvalidArgument")
check("key-too-long", exchange(signed_head("PUT", "/it-bad/" + "k" * 1025, {"Content-Length": "1"}), b"x"), 400,
      "KeyTooLongError")

# unsigned writes are refused; a Signature V2 presigned URL past its Expires is refused as expired
check("unsigned-put", exchange(b"PUT /it-bad/x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n", b"x"), 403, "AccessDenied")
check("sigv2-expired", exchange(b"GET /it-bad/x?AWSAccessKeyId=a&Signature=b&Expires=1 HTTP/1.1\r\nHost: h\r\n\r\n"), 403,
      "Request has expired")
check("bad-sha256", exchange(signed_head("PUT", "/it-bad/sha", {"Content-Length": "3"}, "0" * 64), b"abc"), 400,
      "XAmzContentSHA256Mismatch")

# slow-loris: a head that trickles in is cut off after the head timeout
s = socket.create_connection((HOST, PORT), timeout=HEAD_TIMEOUT + 10)
start = time.monotonic()
s.sendall(b"GET /it-bad/x HTTP/1.1\r\n")
closed = False
try:
    for i in range(int(HEAD_TIMEOUT * 4) + 20):
        s.sendall(b"X-Slow-%d: y\r\n" % i)
        time.sleep(0.5)
except (BrokenPipeError, ConnectionResetError):
    closed = True
if not closed:
    closed = s.recv(1) == b""
waited = time.monotonic() - start
assert closed and waited < HEAD_TIMEOUT + 8, "slow head not cut off (closed=%s after %.1f s)" % (closed, waited)
print("ok slow-loris closed after %.1f s (head timeout %.1f s)" % (waited, HEAD_TIMEOUT), flush=True)

# slow-loris body: a head at once, then a body that trickles in (4 bytes/s, so no idle timeout) is
# answered RequestTimeout once it falls behind the minimum rate after the grace, and its spool removed
before = spooled()
s = socket.create_connection((HOST, PORT), timeout=BODY_GRACE + 10)
start = time.monotonic()
s.sendall(signed_head("PUT", "/it-bad/slow", {"Content-Length": "100000"}))
s.sendall(b"x")
time.sleep(0.5)
new = spooled() - before
assert len(new) == 1, "expected the slow body's spool file, found %s" % new
s.setblocking(False)
resp = b""
cut = False
for i in range(int(BODY_GRACE * 4) + 40):
    try:
        s.sendall(b"x")
    except (BrokenPipeError, ConnectionResetError, BlockingIOError):
        pass
    time.sleep(0.25)
    try:
        chunk = s.recv(65536)
        resp += chunk
        if not chunk:
            cut = True
            break
    except BlockingIOError:
        pass
    except ConnectionResetError:
        cut = True
        break
waited = time.monotonic() - start
s.close()
assert cut, "slow body not cut off after %.1f s: %r" % (waited, resp[:300])
check("slow-body", resp, 400, "<Code>RequestTimeout</Code><Message>Your socket connection to the server was not read "
      "from or written to within the timeout period. (the request body came slower than 1024 bytes/s")
assert BODY_GRACE <= waited < BODY_GRACE + 5, "cut after %.1f s (grace %.1f s)" % (waited, BODY_GRACE)
assert not (new & spooled()), "the slow body's spool file %s is still there" % new
not_stored("slow")
print("ok slow-body cut after %.1f s (grace %.1f s), spool removed" % (waited, BODY_GRACE), flush=True)

# and the node still serves
assert "it-bad" in [b["Name"] for b in s3.list_buckets()["Buckets"]]
print("ALL OK", flush=True)
