#!/usr/bin/env python3
"""Server-side encryption (SSE-C and SSE-S3) of a geoblocks S3 gateway, driven with boto3 over HTTPS (used
by S3GatewayIT, whose nodes have an SSE-S3 key file and serve HTTPS beside HTTP).

Usage: sse_check.py HTTPS_ENDPOINT OTHER_HTTPS_ENDPOINT HTTP_ENDPOINT DATA_DIR
GEOBLOCKS_CA: the CA file that verifies the https endpoints. DATA_DIR: the cluster's data directories
(one per node), searched at the end for the plaintext of every encrypted object (never found) and of an
unencrypted control object (found, so the search can see plaintext).
Prints one line per check ("ok NAME ..."); exits non-zero on the first failure with its reason.
"""
import base64
import hashlib
import os
import random
import sys
import uuid

from s3check import expect_error, ok, path_client

ENDPOINT, OTHER, PLAIN_HTTP, DATA = sys.argv[1:5]
CA = os.environ.get("GEOBLOCKS_CA")
KEY, SECRET, REGION = "geoblocks-demo", "geoblocks-local-demo-secret", "us-east-1"
MIB = 1024 * 1024
CHUNK = 64 * 1024


def client(endpoint=ENDPOINT):
    return path_client(endpoint, KEY, SECRET, REGION, verify=CA)


def sse_c(key):
    return {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": base64.b64encode(key).decode(),
            "SSECustomerKeyMD5": base64.b64encode(hashlib.md5(key).digest()).decode()}


def copy_source_c(key):
    return {"CopySource" + k: v for k, v in sse_c(key).items()}


def body(size, marker, seed):
    """Random bytes with the marker every 4 KiB, so the plaintext is recognisable on disk."""
    rnd = random.Random(seed)
    out = bytearray(rnd.randbytes(size))
    for at in range(0, max(0, size - len(marker)), 4096):
        out[at:at + len(marker)] = marker
    return bytes(out)


def status(e):
    return e.response["ResponseMetadata"]["HTTPStatusCode"]


s3 = client()
other = client(OTHER)
run = uuid.uuid4().hex[:8]
bucket = "sse-" + run
s3.create_bucket(Bucket=bucket)
k1, k2 = os.urandom(32), os.urandom(32)
markers = []

# --- SSE-C: put, get (here and at another node), head, ranges across chunk boundaries, wrong or missing key
objects = {}
for name, size in (("tiny", 13), ("chunks", 5 * CHUNK + 77), ("big", 3 * MIB + 5)):
    marker = ("GBSSE-C-%s-%s-" % (run, name)).encode()
    markers.append(marker)
    data = body(size, marker, size)
    r = s3.put_object(Bucket=bucket, Key=name, Body=data, **sse_c(k1))
    assert r["SSECustomerAlgorithm"] == "AES256" and r["SSECustomerKeyMD5"] == sse_c(k1)["SSECustomerKeyMD5"], r
    assert r["ETag"].strip('"') != hashlib.md5(data).hexdigest(), "an SSE-C ETag is not the plaintext's MD5"
    objects[name] = data
    for c in (s3, other):
        g = c.get_object(Bucket=bucket, Key=name, **sse_c(k1))
        assert g["Body"].read() == data, name
        assert g["ContentLength"] == size and g["ETag"] == r["ETag"], g
    h = s3.head_object(Bucket=bucket, Key=name, **sse_c(k1))
    assert h["ContentLength"] == size and h["SSECustomerAlgorithm"] == "AES256", h
ok("sse-c-put-get", "13 B, 5 chunks and 3 MiB, read back byte for byte at two nodes; HEAD shows the plaintext size")

data = objects["big"]
rnd = random.Random(7)
spans = [(CHUNK - 1, CHUNK), (0, 0), (len(data) - 1, len(data) - 1), (CHUNK * 3 + 5, CHUNK * 7 + 3)]
spans += [(a, min(len(data) - 1, a + rnd.randrange(1, 3 * CHUNK))) for a in (rnd.randrange(len(data)) for _ in range(12))]
for a, b in spans:
    g = other.get_object(Bucket=bucket, Key="big", Range="bytes=%d-%d" % (a, b), **sse_c(k1))
    assert g["Body"].read() == data[a:b + 1], (a, b)
    assert g["ContentRange"] == "bytes %d-%d/%d" % (a, b, len(data)), g["ContentRange"]
g = s3.get_object(Bucket=bucket, Key="big", Range="bytes=-100", **sse_c(k1))
assert g["Body"].read() == data[-100:]
ok("sse-c-range", "%d ranges across chunk boundaries, Content-Range of the plaintext" % (len(spans) + 1))

e = expect_error("InvalidRequest", lambda: s3.get_object(Bucket=bucket, Key="big"))
assert status(e) == 400
expect_error("InvalidRequest", lambda: s3.get_object(Bucket=bucket, Key="big", **sse_c(k2)))
expect_error("InvalidRequest", lambda: other.get_object(Bucket=bucket, Key="chunks", **sse_c(k2)))
assert status(expect_error("400", lambda: s3.head_object(Bucket=bucket, Key="tiny"))) == 400
expect_error("400", lambda: s3.head_object(Bucket=bucket, Key="tiny", **sse_c(k2)))
bad = dict(sse_c(k1), SSECustomerKeyMD5=base64.b64encode(b"\0" * 16).decode())
expect_error("InvalidArgument", lambda: s3.put_object(Bucket=bucket, Key="bad", Body=b"x", **bad))
plain = path_client(PLAIN_HTTP, KEY, SECRET, REGION)
expect_error("InvalidRequest", lambda: plain.put_object(Bucket=bucket, Key="plain-http", Body=b"x", **sse_c(k1)))
expect_error("InvalidRequest", lambda: plain.get_object(Bucket=bucket, Key="tiny", **sse_c(k1)))
expect_error("NoSuchKey", lambda: s3.get_object(Bucket=bucket, Key="plain-http"))
ok("sse-c-wrong-key", "no key, a wrong key (GET, HEAD, at two nodes), a wrong key MD5 and plain HTTP refused with 400")

listed = {o["Key"]: o["Size"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]}
assert all(listed[n] == len(d) for n, d in objects.items()), listed
attrs = s3.get_object_attributes(Bucket=bucket, Key="chunks", ObjectAttributes=["ObjectSize", "ETag"], **sse_c(k1))
assert attrs["ObjectSize"] == len(objects["chunks"]), attrs
expect_error("InvalidRequest", lambda: s3.get_object_attributes(Bucket=bucket, Key="chunks", ObjectAttributes=["ObjectSize"]))
ok("sse-c-sizes", "ListObjectsV2 and GetObjectAttributes show plaintext sizes")

# --- SSE-C multipart: every part and the Complete carry the key
marker = ("GBSSE-MP-%s-" % run).encode()
markers.append(marker)
mp = body(11 * MIB + 3, marker, 11)
u = s3.create_multipart_upload(Bucket=bucket, Key="mp", **sse_c(k1))["UploadId"]
parts = []
for i, at in enumerate(range(0, len(mp), 5 * MIB)):
    if i == 1:
        expect_error("InvalidRequest", lambda: s3.upload_part(Bucket=bucket, Key="mp", UploadId=u, PartNumber=2,
                                                              Body=mp[at:at + 5 * MIB]))
        expect_error("InvalidRequest", lambda: s3.upload_part(Bucket=bucket, Key="mp", UploadId=u, PartNumber=2,
                                                              Body=mp[at:at + 5 * MIB], **sse_c(k2)))
    r = s3.upload_part(Bucket=bucket, Key="mp", UploadId=u, PartNumber=i + 1, Body=mp[at:at + 5 * MIB], **sse_c(k1))
    parts.append({"PartNumber": i + 1, "ETag": r["ETag"]})
expect_error("InvalidRequest", lambda: s3.complete_multipart_upload(Bucket=bucket, Key="mp", UploadId=u,
                                                                    MultipartUpload={"Parts": parts}))
done = s3.complete_multipart_upload(Bucket=bucket, Key="mp", UploadId=u, MultipartUpload={"Parts": parts}, **sse_c(k1))
g = other.get_object(Bucket=bucket, Key="mp", **sse_c(k1))
assert g["Body"].read() == mp and g["ETag"] == done["ETag"] and done["ETag"].endswith('-3"'), (g["ETag"], done["ETag"])
g = s3.get_object(Bucket=bucket, Key="mp", Range="bytes=%d-%d" % (5 * MIB - 10, 5 * MIB + 10), **sse_c(k1))
assert g["Body"].read() == mp[5 * MIB - 10:5 * MIB + 11]
g = s3.get_object(Bucket=bucket, Key="mp", PartNumber=2, **sse_c(k1))
assert g["Body"].read() == mp[5 * MIB:10 * MIB]
ok("sse-c-multipart", "3 parts with the key (a part and a Complete without it or with another refused), read whole,"
   " by range and by partNumber")

# --- SSE-S3, copies between modes, bucket default encryption
marker = ("GBSSE-S3-%s-" % run).encode()
markers.append(marker)
s3data = body(2 * MIB + 9, marker, 3)
r = s3.put_object(Bucket=bucket, Key="s3", Body=s3data, ServerSideEncryption="AES256")
assert r["ServerSideEncryption"] == "AES256" and r["ETag"].strip('"') == hashlib.md5(s3data).hexdigest(), r
g = other.get_object(Bucket=bucket, Key="s3")
assert g["ServerSideEncryption"] == "AES256" and g["Body"].read() == s3data and g["ContentLength"] == len(s3data)
g = s3.get_object(Bucket=bucket, Key="s3", Range="bytes=100-70000")
assert g["Body"].read() == s3data[100:70001]
expect_error("400", lambda: s3.head_object(Bucket=bucket, Key="s3", **sse_c(k1)))
expect_error("NotImplemented", lambda: s3.put_object(Bucket=bucket, Key="kms", Body=b"x", ServerSideEncryption="aws:kms"))
ok("sse-s3", "put, get at another node, a range, ETag = MD5; a customer key on it refused; SSE-KMS NotImplemented")

c = s3.copy_object(Bucket=bucket, Key="c-to-s3", CopySource={"Bucket": bucket, "Key": "chunks"},
                   ServerSideEncryption="AES256", **copy_source_c(k1))
assert c["ServerSideEncryption"] == "AES256"
assert s3.get_object(Bucket=bucket, Key="c-to-s3")["Body"].read() == objects["chunks"]
s3.copy_object(Bucket=bucket, Key="s3-to-c", CopySource={"Bucket": bucket, "Key": "s3"}, **sse_c(k2))
assert other.get_object(Bucket=bucket, Key="s3-to-c", **sse_c(k2))["Body"].read() == s3data
expect_error("InvalidRequest", lambda: s3.get_object(Bucket=bucket, Key="s3-to-c", **sse_c(k1)))
s3.copy_object(Bucket=bucket, Key="c-to-plain", CopySource={"Bucket": bucket, "Key": "tiny"}, **copy_source_c(k1))
assert s3.get_object(Bucket=bucket, Key="c-to-plain")["Body"].read() == objects["tiny"]
expect_error("InvalidRequest", lambda: s3.copy_object(Bucket=bucket, Key="x", CopySource={"Bucket": bucket, "Key": "tiny"}))
expect_error("InvalidRequest", lambda: s3.copy_object(Bucket=bucket, Key="x", CopySource={"Bucket": bucket, "Key": "tiny"},
                                                      **copy_source_c(k2)))
u = s3.create_multipart_upload(Bucket=bucket, Key="pc", ServerSideEncryption="AES256")["UploadId"]
pc = s3.upload_part_copy(Bucket=bucket, Key="pc", UploadId=u, PartNumber=1, CopySource={"Bucket": bucket, "Key": "big"},
                         CopySourceRange="bytes=70000-%d" % (len(objects["big"]) - 1), **copy_source_c(k1))
# a range past the source's end is refused, as S3 does (x-amz-copy-source-range is read strictly)
expect_error("InvalidRange", lambda: s3.upload_part_copy(Bucket=bucket, Key="pc", UploadId=u, PartNumber=2,
                                                         CopySource={"Bucket": bucket, "Key": "big"},
                                                         CopySourceRange="bytes=70000-5312345", **copy_source_c(k1)))
s3.complete_multipart_upload(Bucket=bucket, Key="pc", UploadId=u,
                             MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": pc["CopyPartResult"]["ETag"]}]})
assert s3.get_object(Bucket=bucket, Key="pc")["Body"].read() == objects["big"][70000:]
ok("sse-copy", "SSE-C to SSE-S3, SSE-S3 to SSE-C, SSE-C to plain, UploadPartCopy of an SSE-C range; a missing or wrong"
   " source key refused")

expect_error("ServerSideEncryptionConfigurationNotFoundError", lambda: s3.get_bucket_encryption(Bucket=bucket))
s3.put_bucket_encryption(Bucket=bucket, ServerSideEncryptionConfiguration={
    "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]})
rule = s3.get_bucket_encryption(Bucket=bucket)["ServerSideEncryptionConfiguration"]["Rules"][0]
assert rule["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256", rule
marker = ("GBSSE-DEFAULT-%s-" % run).encode()
markers.append(marker)
dflt = body(300 * 1024, marker, 5)
assert s3.put_object(Bucket=bucket, Key="default", Body=dflt)["ServerSideEncryption"] == "AES256"
g = other.get_object(Bucket=bucket, Key="default")
assert g["ServerSideEncryption"] == "AES256" and g["Body"].read() == dflt
s3.delete_bucket_encryption(Bucket=bucket)
expect_error("ServerSideEncryptionConfigurationNotFoundError", lambda: s3.get_bucket_encryption(Bucket=bucket))
assert "ServerSideEncryption" not in s3.put_object(Bucket=bucket, Key="after", Body=b"plain")
ok("bucket-encryption", "Put/Get/DeleteBucketEncryption; a PUT without headers encrypted by the default, read at another node")

# --- on disk: no node's data directory holds any encrypted object's plaintext; the control object's is found
control = ("GBSSE-CONTROL-%s-" % run).encode()
s3.put_object(Bucket=bucket, Key="control", Body=body(300 * 1024, control, 9))
found = {m: False for m in markers + [control]}
files = 0
for root, _, names in os.walk(DATA):
    for n in names:
        p = os.path.join(root, n)
        try:
            if os.path.getsize(p) > 256 * MIB:
                continue
            with open(p, "rb") as f:
                blob = f.read()
        except OSError:
            continue
        files += 1
        for m in found:
            if not found[m] and m in blob:
                found[m] = True
assert found[control], "the control object's plaintext was not found in %s: the search cannot see plaintext" % DATA
leaked = [m.decode() for m in markers if found[m]]
assert not leaked, "plaintext of encrypted objects found on disk: %s" % leaked
ok("sse-at-rest", "%d files of every node's data directory: no encrypted object's plaintext, the control's found" % files)
print("all sse checks passed")
