#!/usr/bin/env python3
"""Access keys, ACLs and PublicAccessBlock of a geoblocks S3 gateway, driven with boto3 (used by S3GatewayIT).

Usage: keys_check.py ENDPOINT OTHER_ENDPOINT REGION OTHER_REGION
The environment variable GEOBLOCKS_CLIENT holds the command that runs `node.jar client` for this
cluster without --at (e.g. "java -jar node.jar client --config cluster.conf"); the script makes its
keys with it (`key create`, `key revoke`). GEOBLOCKS_CA (optional): a CA file to verify an https endpoint.
Prints one line per check ("ok NAME ..."); exits non-zero on the first failure with its reason.
"""
import json
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
import ssl
import os
import socket

import boto3
import botocore
from botocore.config import Config

from s3check import expect_error, ok, path_client

ENDPOINT, OTHER, REGION, OTHER_REGION = sys.argv[1:5]
CLIENT = shlex.split(os.environ["GEOBLOCKS_CLIENT"])
CA = os.environ.get("GEOBLOCKS_CA")
# over HTTPS botocore sends aws-chunked bodies with checksum trailers unless told to send checksums only
# when an operation requires them
CHECKSUMS = "when_required"
DEMO = ("geoblocks-demo", "geoblocks-local-demo-secret")


def cli(region, *args):
    r = subprocess.run(CLIENT + ["--at", region] + list(args), capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError("client %s failed (%d): %s %s" % (args, r.returncode, r.stdout, r.stderr))
    return r.stdout


def new_key(region, name):
    k = json.loads(cli(region, "key", "create", name, "--json").strip().splitlines()[-1])
    return k["id"], k["secret"]


def client(key, endpoint=ENDPOINT):
    return path_client(endpoint, key[0], key[1], "us-east-1", attempts=1, verify=CA if CA else True,
                       request_checksum_calculation=CHECKSUMS)




def anonymous_get(url):
    """Status of an unsigned GET."""
    ctx = ssl.create_default_context(cafile=CA) if CA else None
    try:
        with urllib.request.urlopen(url, context=ctx) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def eventually(what, fn, seconds=20):
    end = time.time() + seconds
    while True:
        try:
            return fn()
        except (AssertionError, botocore.exceptions.ClientError):
            if time.time() > end:
                raise
            time.sleep(0.5)


alice = new_key(REGION, "alice")
bob = new_key(OTHER_REGION, "bob")
ok("key-create", "%s %s" % (alice[0], bob[0]))
listed = cli(OTHER_REGION, "key", "list")
assert alice[0] in listed and bob[0] in listed and alice[1] not in listed, listed
ok("key-list", "both keys listed at %s, no secret shown" % OTHER_REGION)

a = client(alice)
b = client(bob)
b_other = client(bob, OTHER)
a_other = client(alice, OTHER)
demo = client(DEMO)

bucket = "keys-%d" % int(time.time())
a.create_bucket(Bucket=bucket)
a.put_object(Bucket=bucket, Key="secret.txt", Body=b"alice only")
# the key made at the other region works here, and alice's key works there
assert a_other.get_object(Bucket=bucket, Key="secret.txt")["Body"].read() == b"alice only"
ok("second-key", "alice's key (made at %s) works at both nodes" % REGION)

acl = a.get_bucket_acl(Bucket=bucket)
assert acl["Owner"]["ID"] == alice[0] and acl["Owner"]["DisplayName"] == "alice", acl
assert [g["Permission"] for g in acl["Grants"]] == ["FULL_CONTROL"], acl
ok("bucket-owner", "the creating key owns the bucket")

expect_error("AccessDenied", lambda: b.list_objects_v2(Bucket=bucket))
expect_error("AccessDenied", lambda: b.get_object(Bucket=bucket, Key="secret.txt"))
expect_error("AccessDenied", lambda: b.put_object(Bucket=bucket, Key="x", Body=b"x"))
expect_error("AccessDenied", lambda: b.put_bucket_acl(Bucket=bucket, ACL="public-read"))
expect_error("AccessDenied", lambda: b.delete_bucket(Bucket=bucket))
expect_error("BucketAlreadyExists", lambda: b.create_bucket(Bucket=bucket))
assert bucket not in [x["Name"] for x in b.list_buckets()["Buckets"]]
assert bucket in [x["Name"] for x in a.list_buckets()["Buckets"]]
assert anonymous_get("%s/%s/secret.txt" % (ENDPOINT, bucket)) == 403
ok("private", "another key and unsigned requests are refused; ListBuckets shows only one's own")

# grants by key id
a.put_bucket_acl(Bucket=bucket, AccessControlPolicy={
    "Owner": {"ID": alice[0]},
    "Grants": [{"Grantee": {"Type": "CanonicalUser", "ID": bob[0]}, "Permission": "READ"},
               {"Grantee": {"Type": "CanonicalUser", "ID": bob[0]}, "Permission": "WRITE"}]})
grants = a.get_bucket_acl(Bucket=bucket)["Grants"]
assert {(g["Grantee"].get("ID"), g["Permission"]) for g in grants} == {
    (alice[0], "FULL_CONTROL"), (bob[0], "READ"), (bob[0], "WRITE")}, grants
assert [o["Key"] for o in b.list_objects_v2(Bucket=bucket)["Contents"]] == ["secret.txt"]
b.put_object(Bucket=bucket, Key="from-bob", Body=b"bob")
expect_error("AccessDenied", lambda: b.get_object(Bucket=bucket, Key="secret.txt"))  # objects have their own ACL
ok("bucket-grant", "READ and WRITE granted to bob by id: he lists and writes, but reads no object")
# a WRITE grant does not let bob change the tags (or retention, legal hold) of alice's objects: only she, or a
# bucket policy that allows s3:PutObjectTagging, may
tags = {"TagSet": [{"Key": "class", "Value": "public"}]}
expect_error("AccessDenied", lambda: b.put_object_tagging(Bucket=bucket, Key="secret.txt", Tagging=tags))
expect_error("AccessDenied", lambda: b.delete_object_tagging(Bucket=bucket, Key="secret.txt"))
a.put_object_tagging(Bucket=bucket, Key="secret.txt", Tagging=tags)
a.delete_object_tagging(Bucket=bucket, Key="secret.txt")
ok("tagging-permission", "bob's WRITE grant: PutObjectTagging and DeleteObjectTagging refused; the owner's allowed")

# canned ACLs on objects, unsigned reads
a.put_object(Bucket=bucket, Key="pub.txt", Body=b"hello", ACL="public-read")
assert anonymous_get("%s/%s/pub.txt" % (ENDPOINT, bucket)) == 200
assert b.get_object(Bucket=bucket, Key="pub.txt")["Body"].read() == b"hello"
og = a.get_object_acl(Bucket=bucket, Key="pub.txt")["Grants"]
assert any(g["Grantee"].get("URI", "").endswith("/AllUsers") and g["Permission"] == "READ" for g in og), og
a.put_object(Bucket=bucket, Key="pub.txt", Body=b"hello again")  # a new version without an ACL is private
assert anonymous_get("%s/%s/pub.txt" % (ENDPOINT, bucket)) == 403
a.put_object_acl(Bucket=bucket, Key="pub.txt", ACL="public-read")
assert anonymous_get("%s/%s/pub.txt" % (ENDPOINT, bucket)) == 200


def public_there():
    assert anonymous_get("%s/%s/pub.txt" % (OTHER, bucket)) == 200


eventually("public at the other node", public_there)
ok("public-read", "x-amz-acl and PutObjectAcl: unsigned GET 200; a new version is private again")

# PublicAccessBlock
expect_error("NoSuchPublicAccessBlockConfiguration", lambda: a.get_public_access_block(Bucket=bucket))
a.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration={
    "BlockPublicAcls": True, "IgnorePublicAcls": True, "BlockPublicPolicy": False, "RestrictPublicBuckets": False})
got = a.get_public_access_block(Bucket=bucket)["PublicAccessBlockConfiguration"]
assert got["BlockPublicAcls"] and got["IgnorePublicAcls"] and not got["BlockPublicPolicy"], got
assert anonymous_get("%s/%s/pub.txt" % (ENDPOINT, bucket)) == 403
expect_error("AccessDenied", lambda: a.put_object(Bucket=bucket, Key="p2", Body=b"x", ACL="public-read"))
expect_error("AccessDenied", lambda: a.put_bucket_acl(Bucket=bucket, ACL="public-read"))
a.delete_public_access_block(Bucket=bucket)
assert anonymous_get("%s/%s/pub.txt" % (ENDPOINT, bucket)) == 200
ok("public-access-block", "IgnorePublicAcls hides public grants, BlockPublicAcls refuses them, delete restores")

# bucket policies: an Allow grants bob reads under public/, a Deny refuses even the owner's unencrypted puts
pbucket = bucket + "-pol"
a.create_bucket(Bucket=pbucket)
a.put_object(Bucket=pbucket, Key="public/a", Body=b"pa")
a.put_object(Bucket=pbucket, Key="private/b", Body=b"pb")
expect_error("NoSuchBucketPolicy", lambda: a.get_bucket_policy(Bucket=pbucket))
expect_error("MalformedPolicy", lambda: a.put_bucket_policy(Bucket=pbucket, Policy="{}"))
expect_error("MalformedPolicy", lambda: a.put_bucket_policy(Bucket=pbucket, Policy=json.dumps({"Statement": [{
    "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::another-bucket/*"}]})))
doc = json.dumps({"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % bob[0]}, "Action": ["s3:GetObject", "s3:ListBucket"],
     "Resource": ["arn:aws:s3:::%s/public/*" % pbucket, "arn:aws:s3:::%s" % pbucket]},
    {"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject", "Resource": "arn:aws:s3:::%s/*" % pbucket,
     "Condition": {"Null": {"s3:x-amz-server-side-encryption": "true"}}}]})
a.put_bucket_policy(Bucket=pbucket, Policy=doc)
assert a.get_bucket_policy(Bucket=pbucket)["Policy"] == doc
assert b.get_object(Bucket=pbucket, Key="public/a")["Body"].read() == b"pa"
expect_error("AccessDenied", lambda: b.get_object(Bucket=pbucket, Key="private/b"))
expect_error("AccessDenied", lambda: a.put_object(Bucket=pbucket, Key="plain", Body=b"x"))
a.put_object(Bucket=pbucket, Key="sealed", Body=b"x", ServerSideEncryption="AES256")
b.create_bucket(Bucket=pbucket + "-bob")
b.copy_object(Bucket=pbucket + "-bob", Key="c", CopySource={"Bucket": pbucket, "Key": "public/a"})
expect_error("AccessDenied", lambda: b.copy_object(Bucket=pbucket + "-bob", Key="d",
                                                   CopySource={"Bucket": pbucket, "Key": "private/b"}))
assert anonymous_get("%s/%s/public/a" % (ENDPOINT, pbucket)) == 403  # granted to bob only
assert not a.get_bucket_policy_status(Bucket=pbucket)["PolicyStatus"]["IsPublic"]


def policy_there():  # the other node reads the policy record within its cache's second
    assert b_other_pol.get_object(Bucket=pbucket, Key="public/a")["Body"].read() == b"pa"


b_other_pol = client(bob, OTHER)
eventually("policy at the other node", policy_there)
a.delete_bucket_policy(Bucket=pbucket)
expect_error("NoSuchBucketPolicy", lambda: a.get_bucket_policy(Bucket=pbucket))
ok("bucket-policy", "Allow to one key by ARN, Deny with a Null condition (the owner too), copy sources, malformed refused")

# a request whose access key and bucket policy the node must both read first keeps its body meanwhile: a
# PutBucketPolicy sent when neither was cached had been left unanswered (the held body was dropped)
carol = new_key(REGION, "carol")
c_held = boto3.client("s3", endpoint_url=ENDPOINT, aws_access_key_id=carol[0], aws_secret_access_key=carol[1],
                      region_name="us-east-1", verify=CA if CA else True,
                      config=Config(s3={"addressing_style": "path"}, signature_version="s3v4", read_timeout=20,
                                    retries={"max_attempts": 1}, request_checksum_calculation=CHECKSUMS))
hbucket = bucket + "-held"
c_held.create_bucket(Bucket=hbucket)
time.sleep(5.5)  # the node's cache of carol's key (5 s) and of the bucket's policy (1 s) run out
held_doc = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject",
                                                              "Resource": "arn:aws:s3:::%s/locked/*" % hbucket}]})
started = time.time()
c_held.put_bucket_policy(Bucket=hbucket, Policy=held_doc)
assert c_held.get_bucket_policy(Bucket=hbucket)["Policy"] == held_doc
c_held.delete_bucket_policy(Bucket=hbucket)
c_held.delete_bucket(Bucket=hbucket)
ok("held-body", "PutBucketPolicy with its key and policy read first: answered in %.2f s" % (time.time() - started))

# requests signed whole: whoever holds a presigned PUT URL can add no header its signer did not sign
def raw_put(url, headers, data=b"dropped"):
    ctx = ssl.create_default_context(cafile=CA) if CA else None
    req = urllib.request.Request(url, data=data, method="PUT", headers=headers)
    try:
        with urllib.request.urlopen(req, context=ctx) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


drop = a.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "drop.txt"}, ExpiresIn=300)
for extra in ({"x-amz-copy-source": "/%s/secret.txt" % bucket}, {"x-amz-acl": "public-read"},
              {"x-amz-object-lock-mode": "GOVERNANCE", "x-amz-object-lock-retain-until-date": "2099-01-01T00:00:00Z"}):
    status, body = raw_put(drop, extra)
    assert status == 403 and b"were not signed" in body, (extra, status, body)
expect_error("NoSuchKey", lambda: a.get_object(Bucket=bucket, Key="drop.txt"))
status, body = raw_put(drop, {})
assert status == 200, (status, body)
assert a.get_object(Bucket=bucket, Key="drop.txt")["Body"].read() == b"dropped"
assert anonymous_get("%s/%s/drop.txt" % (ENDPOINT, bucket)) == 403
a.delete_object(Bucket=bucket, Key="drop.txt")
ok("signed-whole", "a presigned PUT with an unsigned x-amz-copy-source, x-amz-acl or object lock: 403; as signed: 200")

# any region of the cluster is a valid signing region at every gateway (a client signs with the bucket's location)
for r in (OTHER_REGION, REGION):
    signer = path_client(ENDPOINT, alice[0], alice[1], r, attempts=1, verify=CA if CA else True,
                         request_checksum_calculation=CHECKSUMS)
    assert signer.get_object(Bucket=bucket, Key="secret.txt")["Body"].read() == b"alice only"
ok("signing-regions", "requests signed for %s and %s both work at %s's gateway" % (OTHER_REGION, REGION, REGION))

expect_error("NotImplemented", lambda: a.put_object(Bucket=bucket, Key="p3", Body=b"x", ACL="log-delivery-write"))
ok("not-implemented", "other canned ACLs")

# the demo key (config) still works and owns its own buckets
demo.create_bucket(Bucket=bucket + "-demo")
demo.put_object(Bucket=bucket + "-demo", Key="k", Body=b"demo")
expect_error("AccessDenied", lambda: a.get_object(Bucket=bucket + "-demo", Key="k"))
demo.delete_object(Bucket=bucket + "-demo", Key="k")
demo.delete_bucket(Bucket=bucket + "-demo")
ok("demo-key", "the config's key works beside the new ones")

# revocation: refused at both nodes once it spread (each node caches a key 5 s)


def listed_there():  # the other node sees the bucket's new ACL within its bucket cache's 5 s
    assert b_other.list_objects_v2(Bucket=bucket)["KeyCount"] >= 1


eventually("bob lists at the other node", listed_there)
cli(REGION, "key", "revoke", bob[0])
t0 = time.time()


def refused(c):
    expect_error("InvalidAccessKeyId", lambda: c.list_objects_v2(Bucket=bucket))


eventually("revoked here", lambda: refused(b))
eventually("revoked there", lambda: refused(b_other))
assert "revoked" in cli(OTHER_REGION, "key", "list")
ok("revoke", "bob's key refused at both nodes %.1f s after the revocation" % (time.time() - t0))

# virtual-hosted style: BUCKET.localhost (names under localhost resolve to loopback here, as curl does)
_resolve = socket.getaddrinfo


def loopback_localhost(host, *args, **kw):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return _resolve(host, *args, **kw)


socket.getaddrinfo = loopback_localhost
port = ENDPOINT.rsplit(":", 1)[1]
scheme = ENDPOINT.split(":", 1)[0]
vh = boto3.client("s3", endpoint_url="%s://localhost:%s" % (scheme, port), aws_access_key_id=alice[0],
                  aws_secret_access_key=alice[1], region_name="us-east-1", verify=CA if CA else True,
                  config=Config(s3={"addressing_style": "virtual"}, signature_version="s3v4",
                                request_checksum_calculation=CHECKSUMS,
                                retries={"max_attempts": 1, "mode": "standard"}))
vb = "keys-vhost"
vh.create_bucket(Bucket=vb)
vh.put_object(Bucket=vb, Key="dir/v.txt", Body=b"virtual")
assert a.get_object(Bucket=vb, Key="dir/v.txt")["Body"].read() == b"virtual"  # the same object, path style
assert [o["Key"] for o in vh.list_objects_v2(Bucket=vb)["Contents"]] == ["dir/v.txt"]
assert vh.get_object(Bucket=vb, Key="dir/v.txt")["Body"].read() == b"virtual"
vh.delete_object(Bucket=vb, Key="dir/v.txt")
vh.delete_bucket(Bucket=vb)
ok("virtual-hosted", "create, put, list, get and delete at %s.localhost:%s" % (vb, port))

# additional checksums the way current SDKs send them over HTTPS: aws-chunked bodies with a trailing checksum
import base64
import hashlib
import zlib
dflt = path_client(ENDPOINT, alice[0], alice[1], "us-east-1", attempts=1, verify=CA if CA else True)
body = bytes(range(256)) * 4096  # 1 MiB
sent = []
dflt.meta.events.register("before-send.s3.PutObject", lambda request, **kw: sent.append(dict(request.headers)))
r = dflt.put_object(Bucket=bucket, Key="ck-sha256", Body=body, ChecksumAlgorithm="SHA256")
want = base64.b64encode(hashlib.sha256(body).digest()).decode()
assert r["ChecksumSHA256"] == want, r
g = dflt.get_object(Bucket=bucket, Key="ck-sha256", ChecksumMode="ENABLED")
assert g["Body"].read() == body and g["ChecksumSHA256"] == want, g
r = dflt.put_object(Bucket=bucket, Key="ck-crc32", Body=body, ChecksumAlgorithm="CRC32")
h = dflt.head_object(Bucket=bucket, Key="ck-crc32", ChecksumMode="ENABLED")
assert h["ChecksumCRC32"] == r["ChecksumCRC32"] == base64.b64encode(zlib.crc32(body).to_bytes(4, "big")).decode(), (h, r)
trailers = [x for x in sent if b"aws-chunked" in x.get("Content-Encoding", b"") and any(k.lower() == "x-amz-trailer" for k in x)]
assert len(trailers) == 2, sent  # both puts really went as aws-chunked bodies with a trailing checksum
ok("checksums-https", "SHA256 and CRC32 sent as aws-chunked trailers over %s, kept and returned" % ENDPOINT.split(":")[0])

for k in ["secret.txt", "from-bob", "pub.txt", "ck-sha256", "ck-crc32"]:
    a.delete_object(Bucket=bucket, Key=k)
a.delete_bucket(Bucket=bucket)
print("all checks passed (%s)" % scheme)
