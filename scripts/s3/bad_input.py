#!/usr/bin/env python3
"""Sends a geoblocks S3 gateway bad input and checks each gets a clear error (used by S3GatewayIT).

Usage: bad_input.py ENDPOINT HEAD_TIMEOUT_S
Malformed XML, a body shorter than its Content-Length, a bad Content-Length, oversize headers, path
traversal in keys, unsigned writes, Signature V2, and a slow-loris head; then the node still serves.
"""
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
HOST = urlparse(ENDPOINT).hostname
PORT = urlparse(ENDPOINT).port
CREDS = botocore.credentials.Credentials("geoblocks-demo", "geoblocks-local-demo-secret")
s3 = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key,
                  region_name="us-east-1", config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"))


def signed_head(method, path, headers, payload_hash="UNSIGNED-PAYLOAD"):
    """The request head (bytes) of a SigV4-signed request; the body is sent separately."""
    h = dict(headers)
    h["x-amz-content-sha256"] = payload_hash
    req = botocore.awsrequest.AWSRequest(method=method, url=ENDPOINT + path, headers=h)
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


def status(resp):
    return int(resp.split(b" ", 2)[1]) if resp.startswith(b"HTTP/1.1 ") else None


def check(name, resp, code, text):
    assert status(resp) == code and text.encode() in resp, "%s: expected %d %s, got %r" % (name, code, text, resp[:400])
    print("ok", name, code, text, flush=True)


s3.create_bucket(Bucket="it-bad")

# malformed XML, in CreateBucket and CompleteMultipartUpload bodies
body = b"<CreateBucketConfiguration><LocationConstraint>dublin"
check("malformed-xml-create", exchange(signed_head("PUT", "/it-bad2", {"Content-Length": str(len(body))}), body),
      400, "MalformedXML")
up = s3.create_multipart_upload(Bucket="it-bad", Key="mp")["UploadId"]
for bad in (b"<CompleteMultipartUpload><Part>", b"not xml at all",
            b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><CompleteMultipartUpload>&e;</CompleteMultipartUpload>',
            b"<CompleteMultipartUpload><Part><PartNumber>0</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>"):
    check("malformed-xml-complete", exchange(signed_head("POST", "/it-bad/mp?uploadId=" + up,
                                                         {"Content-Length": str(len(bad))}), bad), 400, "MalformedXML")
s3.abort_multipart_upload(Bucket="it-bad", Key="mp", UploadId=up)

# a body shorter than its Content-Length: the connection closes, nothing is stored
resp = exchange(signed_head("PUT", "/it-bad/short", {"Content-Length": "100"}), b"0123456789", shut=True)
assert status(resp) in (None, 400), resp[:200]
try:
    s3.head_object(Bucket="it-bad", Key="short")
    raise AssertionError("a truncated body was stored")
except s3.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "404"
print("ok truncated-body-not-stored", flush=True)
check("bad-content-length", exchange(b"PUT /it-bad/x HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n"), 400, "bad request")
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
check("key-too-long", exchange(signed_head("PUT", "/it-bad/" + "k" * 200, {"Content-Length": "1"}), b"x"), 400,
      "KeyTooLongError")

# unsigned writes and Signature V2 are refused
check("unsigned-put", exchange(b"PUT /it-bad/x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n", b"x"), 403, "AccessDenied")
check("sigv2", exchange(b"GET /it-bad/x?AWSAccessKeyId=a&Signature=b&Expires=1 HTTP/1.1\r\nHost: h\r\n\r\n"), 400,
      "Signature Version 2 is not supported")
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

# and the node still serves
assert "it-bad" in [b["Name"] for b in s3.list_buckets()["Buckets"]]
print("ALL OK", flush=True)
