#!/usr/bin/env python3
"""Checks POST object (browser-based uploads) on a geoblocks gateway with urllib and boto3 (used by S3GatewayIT):
a V2-signed and a V4-signed form upload, success_action_status 201, ${filename}, and the refusals of a
bad signature, an expired policy, a field no condition covers and a file outside content-length-range;
a bucket policy's Deny refuses a POST as it refuses a PUT, and a bucket's default encryption (SSE-S3, the
node needs geoblocks.s3.sse.key-file) encrypts a POSTed object.

Usage: post_check.py ENDPOINT [BUCKET]
Prints one line per check ("ok NAME ..."); exits non-zero on the first failure with its reason.
"""
import base64
import datetime
import hashlib
import hmac
import json
import sys
import urllib.error
import urllib.request
import uuid
import xml.etree.ElementTree as ET

from s3check import ok, path_client

ENDPOINT = sys.argv[1]
BUCKET = sys.argv[2] if len(sys.argv) > 2 else "post-check"
KEY, SECRET, REGION = "geoblocks-demo", "geoblocks-local-demo-secret", "us-east-1"


def policy(conditions, seconds=600):
    exp = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    doc = {"expiration": exp.strftime("%Y-%m-%dT%H:%M:%SZ"), "conditions": conditions}
    return base64.b64encode(json.dumps(doc).encode()).decode()


def v2(p):
    return base64.b64encode(hmac.new(SECRET.encode(), p.encode(), hashlib.sha1).digest()).decode()


def v4_fields(p, date):
    def h(k, m):
        return hmac.new(k, m.encode(), hashlib.sha256).digest()
    k = h(h(h(h(("AWS4" + SECRET).encode(), date), REGION), "s3"), "aws4_request")
    return {"x-amz-algorithm": "AWS4-HMAC-SHA256", "x-amz-credential": f"{KEY}/{date}/{REGION}/s3/aws4_request",
            "x-amz-date": date + "T000000Z", "x-amz-signature": hmac.new(k, p.encode(), hashlib.sha256).hexdigest()}


class Answer:
    def __init__(self, status, content):
        self.status_code = status
        self.content = content
        self.text = content.decode("utf-8", "replace")


def post(fields, data=b"bar", filename="hello.txt", bucket=None):
    """A multipart/form-data POST of the fields, then the file (as a browser sends it)."""
    boundary = uuid.uuid4().hex
    body = b""
    for k, v in fields.items():
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n").encode()
    body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n"
             "Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(f"{ENDPOINT}/{bucket or BUCKET}", data=body, method="POST",
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return Answer(r.status, r.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, e.read())


def expect(r, status, name):
    if r.status_code != status:
        print(f"FAIL {name}: HTTP {r.status_code}, wanted {status}: {r.text[:300]}")
        sys.exit(1)


def main():
    s3 = path_client(ENDPOINT, KEY, SECRET, REGION)
    s3.create_bucket(Bucket=BUCKET)
    base = [{"bucket": BUCKET}, ["starts-with", "$key", "up/"], ["starts-with", "$Content-Type", "text/"],
            ["content-length-range", 0, 1024]]
    p = policy(base)
    fields = {"key": "up/v2.txt", "AWSAccessKeyId": KEY, "policy": p, "signature": v2(p), "Content-Type": "text/plain"}
    expect(post(fields), 204, "v2")
    got = s3.get_object(Bucket=BUCKET, Key="up/v2.txt")
    assert got["Body"].read() == b"bar" and got["ContentType"] == "text/plain", got
    ok("post-v2", "204, the object reads back")

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d")
    p4 = policy(base + [{"x-amz-algorithm": "AWS4-HMAC-SHA256"}, ["starts-with", "$x-amz-credential", KEY],
                        ["starts-with", "$x-amz-date", date], ["eq", "$success_action_status", "201"]])
    f4 = {"key": "up/${filename}", "policy": p4, "Content-Type": "text/plain", "success_action_status": "201"}
    f4.update(v4_fields(p4, date))
    r = post(f4, data=b"four", filename="named.txt")
    expect(r, 201, "v4")
    assert ET.fromstring(r.content).find("Key").text == "up/named.txt", r.text
    assert s3.get_object(Bucket=BUCKET, Key="up/named.txt")["Body"].read() == b"four"
    ok("post-v4-filename-201", "the key took the file's name")

    bad = dict(fields, signature=v2(p)[::-1])
    expect(post(bad), 403, "bad signature")
    old = policy(base, seconds=-60)
    expect(post(dict(fields, policy=old, signature=v2(old))), 403, "expired")
    expect(post(dict(fields, **{"x-amz-meta-extra": "1"})), 403, "uncovered field")
    expect(post(fields, data=b"x" * 2000), 400, "too large")
    ok("post-refusals", "bad signature 403, expired 403, uncovered field 403, too large 400")

    # the bucket's policy decides a POST as it decides a PUT of the same key: a Deny refuses (the owner too)
    s3.put_bucket_policy(Bucket=BUCKET, Policy=json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject", "Resource": f"arn:aws:s3:::{BUCKET}/up/denied/*"}]}))
    r = post(dict(fields, key="up/denied/x.txt"))
    expect(r, 403, "denied by the bucket policy")
    assert "policy denies" in r.text, r.text
    expect(post(dict(fields, key="up/allowed.txt")), 204, "a key the policy does not deny")
    s3.delete_bucket_policy(Bucket=BUCKET)
    ok("post-bucket-policy", "a POST the bucket policy denies: 403; another key: 204")

    # the bucket's default encryption applies to a POSTed object as to a PUT one
    enc = BUCKET + "-enc"
    s3.create_bucket(Bucket=enc)
    s3.put_bucket_encryption(Bucket=enc, ServerSideEncryptionConfiguration={
        "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]})
    pe = policy([{"bucket": enc}, ["starts-with", "$key", "up/"], ["starts-with", "$Content-Type", "text/"]])
    expect(post({"key": "up/sealed.txt", "AWSAccessKeyId": KEY, "policy": pe, "signature": v2(pe),
                 "Content-Type": "text/plain"}, data=b"sealed", bucket=enc), 204, "default encryption")
    head = s3.head_object(Bucket=enc, Key="up/sealed.txt")
    assert head.get("ServerSideEncryption") == "AES256", head
    assert s3.get_object(Bucket=enc, Key="up/sealed.txt")["Body"].read() == b"sealed"
    ok("post-default-encryption", "a POST to a bucket with SSE-S3 by default is stored encrypted (HEAD: AES256)")
    print("ALL OK")


if __name__ == "__main__":
    main()
