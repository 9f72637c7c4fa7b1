#!/usr/bin/env python3
"""Drives a geoblocks S3 gateway with boto3 and checks what comes back (used by S3GatewayIT).

Usage: boto3_check.py ENDPOINT [OTHER_ENDPOINT]
Prints one line per check ("ok NAME ..."); exits non-zero on the first failure with its reason.
"""
import hashlib
import os
import sys
import urllib.request
import urllib.error

import boto3
import botocore
from botocore.config import Config

from s3check import expect_error, ok, path_client

ENDPOINT = sys.argv[1]
OTHER = sys.argv[2] if len(sys.argv) > 2 else ENDPOINT
KEY, SECRET = "geoblocks-demo", "geoblocks-local-demo-secret"
MIB = 1024 * 1024


def client(endpoint=ENDPOINT, secret=SECRET, region="us-east-1"):
    return path_client(endpoint, KEY, secret, region)


def data(size, seed):
    """Deterministic bytes: SHA-256 counter stream."""
    out = bytearray()
    i = 0
    while len(out) < size:
        out += hashlib.sha256(b"%d:%d" % (seed, i)).digest()
        i += 1
    return bytes(out[:size])




def delete_and_check_gone(key, size):
    """DeleteObject, then HeadObject is a 404 and GetObject NoSuchKey."""
    assert s3.delete_object(Bucket="it-home", Key=key)["ResponseMetadata"]["HTTPStatusCode"] == 204
    expect_error("404", lambda: s3.head_object(Bucket="it-home", Key=key))
    expect_error("NoSuchKey", lambda: s3.get_object(Bucket="it-home", Key=key))
    ok("delete-head-404", "%d bytes" % size)


s3 = client()

# buckets
s3.create_bucket(Bucket="it-home")
s3.create_bucket(Bucket="it-dublin", CreateBucketConfiguration={"LocationConstraint": "dublin"})
names = [b["Name"] for b in s3.list_buckets()["Buckets"]]
assert "it-home" in names and "it-dublin" in names, names
assert s3.get_bucket_location(Bucket="it-dublin")["LocationConstraint"] == "dublin"
s3.head_bucket(Bucket="it-home")
expect_error("BucketAlreadyOwnedByYou", lambda: s3.create_bucket(Bucket="it-home"))
expect_error("404", lambda: s3.head_bucket(Bucket="it-none"))
expect_error("NoSuchBucket", lambda: s3.list_objects_v2(Bucket="it-none"))
expect_error("InvalidLocationConstraint", lambda: s3.create_bucket(
    Bucket="it-bad", CreateBucketConfiguration={"LocationConstraint": "atlantis"}))
ok("buckets", names)

# put/get/head/delete, byte for byte
for size, seed in ((0, 1), (1024, 2), (5 * MIB, 3), (40 * MIB, 4)):
    body = data(size, seed)
    key = "sizes/obj-%d" % size
    put = s3.put_object(Bucket="it-home", Key=key, Body=body, ContentType="application/x-test")
    md5 = hashlib.md5(body).hexdigest()
    assert put["ETag"] == '"%s"' % md5, (put["ETag"], md5)
    head = s3.head_object(Bucket="it-home", Key=key)
    assert head["ContentLength"] == size and head["ETag"] == put["ETag"], head
    assert head["ContentType"] == "application/x-test", head["ContentType"]
    got = s3.get_object(Bucket="it-home", Key=key)["Body"].read()
    assert got == body, "object of %d bytes came back different (%d bytes)" % (size, len(got))
    ok("put-get-head", "%d bytes etag %s" % (size, md5))
    # the tests below read the 1 KiB and 5 MiB objects: those are deleted at the end
    if size not in (1024, 5 * MIB):
        delete_and_check_gone(key, size)

# ranged get
body = data(5 * MIB, 3)
r = s3.get_object(Bucket="it-home", Key="sizes/obj-%d" % (5 * MIB), Range="bytes=1000-1999")
assert r["ContentRange"] == "bytes 1000-1999/%d" % (5 * MIB), r["ContentRange"]
assert r["Body"].read() == body[1000:2000]
r = s3.get_object(Bucket="it-home", Key="sizes/obj-%d" % (5 * MIB), Range="bytes=-10")
assert r["Body"].read() == body[-10:]
expect_error("InvalidRange", lambda: s3.get_object(Bucket="it-home", Key="sizes/obj-1024", Range="bytes=5000-"))
ok("ranged-get")

# multipart 40 MiB in 8 MiB parts
big = data(40 * MIB, 5)
mp = s3.create_multipart_upload(Bucket="it-home", Key="multi/forty")
parts = []
for i in range(5):
    chunk = big[i * 8 * MIB:(i + 1) * 8 * MIB]
    p = s3.upload_part(Bucket="it-home", Key="multi/forty", UploadId=mp["UploadId"], PartNumber=i + 1, Body=chunk)
    assert p["ETag"] == '"%s"' % hashlib.md5(chunk).hexdigest()
    parts.append({"PartNumber": i + 1, "ETag": p["ETag"]})
done = s3.complete_multipart_upload(Bucket="it-home", Key="multi/forty", UploadId=mp["UploadId"],
                                    MultipartUpload={"Parts": parts})
want = hashlib.md5(b"".join(hashlib.md5(big[i * 8 * MIB:(i + 1) * 8 * MIB]).digest() for i in range(5))).hexdigest()
assert done["ETag"] == '"%s-5"' % want, (done["ETag"], want)
assert s3.get_object(Bucket="it-home", Key="multi/forty")["Body"].read() == big
expect_error("NoSuchUpload", lambda: s3.upload_part(Bucket="it-home", Key="multi/forty", UploadId=mp["UploadId"],
                                                     PartNumber=1, Body=b"x"))
ab = s3.create_multipart_upload(Bucket="it-home", Key="multi/aborted")
s3.upload_part(Bucket="it-home", Key="multi/aborted", UploadId=ab["UploadId"], PartNumber=1, Body=b"abc")
s3.abort_multipart_upload(Bucket="it-home", Key="multi/aborted", UploadId=ab["UploadId"])
ok("multipart", done["ETag"])

# the managed transfer (upload_fileobj splits into parts above its threshold) also round-trips
import io
s3.upload_fileobj(io.BytesIO(big), "it-home", "multi/managed",
                  Config=boto3.s3.transfer.TransferConfig(multipart_threshold=8 * MIB, multipart_chunksize=8 * MIB))
out = io.BytesIO()
s3.download_fileobj("it-home", "multi/managed", out)
assert out.getvalue() == big
ok("managed-transfer")

# listing with prefix and delimiter, paged
for k in ("list/a/1", "list/a/2", "list/b/1", "list/c", "list/d"):
    s3.put_object(Bucket="it-home", Key=k, Body=k.encode())
r = s3.list_objects_v2(Bucket="it-home", Prefix="list/", Delimiter="/")
assert [c["Key"] for c in r["Contents"]] == ["list/c", "list/d"], r.get("Contents")
assert [p["Prefix"] for p in r["CommonPrefixes"]] == ["list/a/", "list/b/"], r.get("CommonPrefixes")
seen = []
pages = s3.get_paginator("list_objects_v2").paginate(Bucket="it-home", Prefix="list/",
                                                       PaginationConfig={"PageSize": 2})
for page in pages:
    seen += [c["Key"] for c in page.get("Contents", [])]
assert seen == ["list/a/1", "list/a/2", "list/b/1", "list/c", "list/d"], seen
v1 = []
for page in s3.get_paginator("list_objects").paginate(Bucket="it-home", Prefix="list/", Delimiter="/",
                                                      PaginationConfig={"PageSize": 1}):
    v1 += [c["Key"] for c in page.get("Contents", [])] + [p["Prefix"] for p in page.get("CommonPrefixes", [])]
assert v1 == ["list/a/", "list/b/", "list/c", "list/d"], v1
ok("list", seen + v1)

# long keys: S3's limit of 1,024 UTF-8 bytes, under the longest bucket name (the file name is then 1,088 bytes);
# put, get, head, listed by prefix (with and without a delimiter, paged with continuation tokens), read at
# another node, deleted; 1,025 bytes is refused with KeyTooLongError
LONG_BUCKET = "it-" + "l" * 60
s3.create_bucket(Bucket=LONG_BUCKET)
long_dir = "long/" + "\u00e9" * 200 + "/"                      # 406 bytes, 2-byte characters among them
long_keys = [long_dir + c * (1024 - len(long_dir.encode()) - 1) + c for c in "abc"]
long_keys.append("long/" + "k" * 1019)
for k in long_keys:
    assert len(k.encode()) == 1024, len(k.encode())
for i, k in enumerate(long_keys):
    s3.put_object(Bucket=LONG_BUCKET, Key=k, Body=data(3000 + i, 7))
for i, k in enumerate(long_keys):
    assert s3.get_object(Bucket=LONG_BUCKET, Key=k)["Body"].read() == data(3000 + i, 7)
    assert s3.head_object(Bucket=LONG_BUCKET, Key=k)["ContentLength"] == 3000 + i
r = s3.list_objects_v2(Bucket=LONG_BUCKET, Prefix=long_dir)
assert [c["Key"] for c in r["Contents"]] == long_keys[:3], [len(c["Key"]) for c in r.get("Contents", [])]
assert r["Contents"][0]["Size"] == 3000 and not r["IsTruncated"], r
r = s3.list_objects_v2(Bucket=LONG_BUCKET, Prefix="long/", Delimiter="/")
assert [c["Key"] for c in r["Contents"]] == [long_keys[3]], r.get("Contents")
assert [p["Prefix"] for p in r["CommonPrefixes"]] == [long_dir], r.get("CommonPrefixes")
paged = []
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=LONG_BUCKET, Prefix="long/",
                                                       PaginationConfig={"PageSize": 1}):
    paged += [c["Key"] for c in page.get("Contents", [])]
in_byte_order = sorted(long_keys, key=lambda k: k.encode())   # "long/k..." before "long/\u00e9..." (0x6b < 0xc3)
assert in_byte_order[0] == long_keys[3]
assert paged == in_byte_order, [k[-3:] for k in paged]
paged = []
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=LONG_BUCKET, StartAfter=long_keys[0],
                                                       PaginationConfig={"PageSize": 2}):
    paged += [c["Key"] for c in page.get("Contents", [])]
assert paged == long_keys[1:3], [k[-3:] for k in paged]
assert client(OTHER).get_object(Bucket=LONG_BUCKET, Key=long_keys[3])["Body"].read() == data(3003, 7)
too_long = long_keys[3] + "k"
e = expect_error("KeyTooLongError", lambda: s3.put_object(Bucket=LONG_BUCKET, Key=too_long, Body=b"x"))
assert "1025" in e.response["Error"]["Message"] and "1024" in e.response["Error"]["Message"], e.response["Error"]
expect_error("KeyTooLongError", lambda: s3.get_object(Bucket=LONG_BUCKET, Key=too_long))
# a long key stored away from its bucket's home (one copy here, moved home in the background)
s3.put_object(Bucket="it-dublin", Key=long_keys[0], Body=data(2000, 8))
assert client(OTHER).get_object(Bucket="it-dublin", Key=long_keys[0])["Body"].read() == data(2000, 8)
# a bucket is empty once its last key is deleted (the emptiness check asks the node for one key)
expect_error("BucketNotEmpty", lambda: s3.delete_bucket(Bucket=LONG_BUCKET))
for k in long_keys:
    s3.delete_object(Bucket=LONG_BUCKET, Key=k)
assert s3.list_objects_v2(Bucket=LONG_BUCKET)["KeyCount"] == 0
s3.delete_bucket(Bucket=LONG_BUCKET)
expect_error("404", lambda: s3.head_bucket(Bucket=LONG_BUCKET))
ok("long-keys", "%d keys of 1024 bytes" % len(long_keys))

# conditional gets
etag = s3.head_object(Bucket="it-home", Key="list/c")["ETag"]
assert s3.get_object(Bucket="it-home", Key="list/c", IfMatch=etag)["Body"].read() == b"list/c"
expect_error("PreconditionFailed", lambda: s3.get_object(Bucket="it-home", Key="list/c", IfMatch='"0000"'))
expect_error("304", lambda: s3.get_object(Bucket="it-home", Key="list/c", IfNoneMatch=etag))
ok("conditional-get")

# copy (to another bucket, keeping the ETag and content type) and multi-object delete
src = s3.head_object(Bucket="it-home", Key="sizes/obj-%d" % (5 * MIB))
cp = s3.copy_object(Bucket="it-dublin", Key="copies/five", CopySource={"Bucket": "it-home", "Key": "sizes/obj-%d" % (5 * MIB)})
assert cp["CopyObjectResult"]["ETag"] == src["ETag"], (cp, src["ETag"])
assert s3.get_object(Bucket="it-dublin", Key="copies/five")["Body"].read() == data(5 * MIB, 3)
expect_error("NoSuchKey", lambda: s3.copy_object(Bucket="it-home", Key="x", CopySource="it-home/no/such"))
for k in ("many/1", "many/2", "many/3"):
    s3.put_object(Bucket="it-home", Key=k, Body=b"x")
r = s3.delete_objects(Bucket="it-home", Delete={"Objects": [{"Key": "many/1"}, {"Key": "many/2"}, {"Key": "many/none"},
                                                            {"Key": "../bad"}]})
assert sorted(d["Key"] for d in r["Deleted"]) == ["many/1", "many/2", "many/none"], r
assert [e["Key"] for e in r["Errors"]] == ["../bad"] and r["Errors"][0]["Code"] == "InvalidArgument", r
assert [c["Key"] for c in s3.list_objects_v2(Bucket="it-home", Prefix="many/")["Contents"]] == ["many/3"]
ok("copy-and-delete-objects")

# delete
s3.delete_object(Bucket="it-home", Key="list/d")
expect_error("NoSuchKey", lambda: s3.get_object(Bucket="it-home", Key="list/d"))
expect_error("404", lambda: s3.head_object(Bucket="it-home", Key="list/d"))
s3.delete_object(Bucket="it-home", Key="never/was")
expect_error("BucketNotEmpty", lambda: s3.delete_bucket(Bucket="it-home"))
ok("delete")

# a wrong secret is refused; an unsigned read of a private bucket too
expect_error("SignatureDoesNotMatch", lambda: client(secret="wrong-secret").list_buckets())
expect_error("SignatureDoesNotMatch", lambda: client(secret="wrong-secret").put_object(Bucket="it-home", Key="x", Body=b"x"))
try:
    urllib.request.urlopen(ENDPOINT + "/it-home/list/c")
    raise AssertionError("an unsigned GET of a private object succeeded")
except urllib.error.HTTPError as e:
    assert e.code == 403 and b"AccessDenied" in e.read(), e.code
ok("auth-refused")

# a public-read object can be read unsigned (and only read): as in S3 the object's ACL decides, not the bucket's
s3.create_bucket(Bucket="it-public", ACL="public-read")
s3.put_object(Bucket="it-public", Key="hello.txt", Body=b"hello", ContentType="text/plain", ACL="public-read")
r = urllib.request.urlopen(ENDPOINT + "/it-public/hello.txt")
assert r.read() == b"hello" and r.headers["Content-Type"] == "text/plain"
try:
    urllib.request.urlopen(urllib.request.Request(ENDPOINT + "/it-public/x", data=b"x", method="PUT"))
    raise AssertionError("an unsigned PUT to a public-read bucket succeeded")
except urllib.error.HTTPError as e:
    assert e.code == 403, e.code
ok("public-read")

# presigned GET (also from the node's own region as the credential scope)
url = s3.generate_presigned_url("get_object", Params={"Bucket": "it-home", "Key": "list/c"}, ExpiresIn=300)
assert urllib.request.urlopen(url).read() == b"list/c"
url = client(region="seoul").generate_presigned_url("get_object", Params={"Bucket": "it-home", "Key": "list/c"},
                                                    ExpiresIn=300)
assert urllib.request.urlopen(url).read() == b"list/c"
ok("presigned-get")

# another node serves the same objects (manifests spread to every node)
other = client(OTHER)
assert other.get_object(Bucket="it-home", Key="sizes/obj-1024")["Body"].read() == data(1024, 2)
ok("other-node")

# an object put at a node that is not its bucket's home is stored there and moved home in the background
s3.put_object(Bucket="it-dublin", Key="bridged", Body=data(3 * MIB, 6))
assert other.get_object(Bucket="it-dublin", Key="bridged")["Body"].read() == data(3 * MIB, 6)
ok("away-from-home")

# the 1 KiB and 5 MiB objects of the size loop, deleted too (0 B and 40 MiB were in the loop)
delete_and_check_gone("sizes/obj-1024", 1024)
delete_and_check_gone("sizes/obj-%d" % (5 * MIB), 5 * MIB)
# conditional writes: If-None-Match and If-Match on PUT, CompleteMultipartUpload and DELETE, decided by the key's owner region
s3.create_bucket(Bucket="it-cond")
assert s3.put_object(Bucket="it-cond", Key="c", Body=b"one", IfNoneMatch="*")["ResponseMetadata"]["HTTPStatusCode"] == 200
expect_error("PreconditionFailed", lambda: s3.put_object(Bucket="it-cond", Key="c", Body=b"two", IfNoneMatch="*"))
e1 = s3.head_object(Bucket="it-cond", Key="c")["ETag"]
expect_error("PreconditionFailed", lambda: s3.put_object(Bucket="it-cond", Key="c", Body=b"two", IfMatch='"00"'))
expect_error("PreconditionFailed", lambda: s3.put_object(Bucket="it-cond", Key="c", Body=b"two", IfNoneMatch=e1))
expect_error("NoSuchKey", lambda: s3.put_object(Bucket="it-cond", Key="none", Body=b"x", IfMatch="*"))
e2 = s3.put_object(Bucket="it-cond", Key="c", Body=b"two", IfMatch=e1)["ETag"]
assert s3.get_object(Bucket="it-cond", Key="c")["Body"].read() == b"two"
up = s3.create_multipart_upload(Bucket="it-cond", Key="c")["UploadId"]
pe = s3.upload_part(Bucket="it-cond", Key="c", UploadId=up, PartNumber=1, Body=b"three")["ETag"]
expect_error("PreconditionFailed", lambda: s3.complete_multipart_upload(Bucket="it-cond", Key="c", UploadId=up,
             IfNoneMatch="*", MultipartUpload={"Parts": [{"ETag": pe, "PartNumber": 1}]}))
assert s3.get_object(Bucket="it-cond", Key="c")["Body"].read() == b"two"
expect_error("PreconditionFailed", lambda: s3.delete_object(Bucket="it-cond", Key="c", IfMatch=e1))
assert s3.delete_object(Bucket="it-cond", Key="c", IfMatch=e2)["ResponseMetadata"]["HTTPStatusCode"] == 204
expect_error("NoSuchKey", lambda: s3.get_object(Bucket="it-cond", Key="c"))
ok("conditional-writes")

# compare-and-swap race: two writers read the same ETag and write If-Match at two nodes at once; exactly one wins
import threading
for i in range(3):
    key = "race/%d" % i
    base = s3.put_object(Bucket="it-cond", Key=key, Body=b"base")["ETag"]
    results = {}

    def writer(name, c):
        try:
            c.put_object(Bucket="it-cond", Key=key, Body=name.encode(), IfMatch=base)
            results[name] = "won"
        except botocore.exceptions.ClientError as e:
            results[name] = e.response["Error"]["Code"]

    threads = [threading.Thread(target=writer, args=(n, c)) for n, c in (("seoul-writer", s3), ("other-writer", client(OTHER)))]
    [t.start() for t in threads]
    [t.join() for t in threads]
    winners = [n for n, r in results.items() if r == "won"]
    assert len(winners) == 1 and sorted(results.values()) == ["PreconditionFailed", "won"], results
    assert s3.get_object(Bucket="it-cond", Key=key)["Body"].read() == winners[0].encode()
ok("compare-and-swap-race", "3 rounds, one winner each")

# copy-source conditions
ce = s3.put_object(Bucket="it-cond", Key="src", Body=b"source")["ETag"]
expect_error("PreconditionFailed", lambda: s3.copy_object(Bucket="it-cond", Key="dst", CopySource="it-cond/src",
                                                          CopySourceIfMatch='"00"'))
expect_error("PreconditionFailed", lambda: s3.copy_object(Bucket="it-cond", Key="dst", CopySource="it-cond/src",
                                                          CopySourceIfNoneMatch=ce))
s3.copy_object(Bucket="it-cond", Key="dst", CopySource="it-cond/src", CopySourceIfMatch=ce)
assert s3.get_object(Bucket="it-cond", Key="dst")["Body"].read() == b"source"
ok("copy-source-conditions")

# versioning: ids, reads of old versions (also at another node), delete markers, listing, suspend
s3.create_bucket(Bucket="it-versions")
assert "Status" not in s3.get_bucket_versioning(Bucket="it-versions")
s3.put_bucket_versioning(Bucket="it-versions", VersioningConfiguration={"Status": "Enabled"})
assert s3.get_bucket_versioning(Bucket="it-versions")["Status"] == "Enabled"
v1 = s3.put_object(Bucket="it-versions", Key="doc", Body=b"v1")["VersionId"]
v2 = s3.put_object(Bucket="it-versions", Key="doc", Body=b"v2")["VersionId"]
assert v1 != v2 and "null" not in (v1, v2), (v1, v2)
got = s3.get_object(Bucket="it-versions", Key="doc", VersionId=v1)
assert got["Body"].read() == b"v1" and got["VersionId"] == v1
assert client(OTHER).get_object(Bucket="it-versions", Key="doc", VersionId=v1)["Body"].read() == b"v1"
assert s3.get_object(Bucket="it-versions", Key="doc")["VersionId"] == v2
d = s3.delete_object(Bucket="it-versions", Key="doc")
assert d["DeleteMarker"] and d["VersionId"] not in (v1, v2), d
expect_error("NoSuchKey", lambda: s3.get_object(Bucket="it-versions", Key="doc"))
expect_error("405", lambda: s3.head_object(Bucket="it-versions", Key="doc", VersionId=d["VersionId"]))
expect_error("NoSuchVersion", lambda: s3.get_object(Bucket="it-versions", Key="doc", VersionId="0000000000000001@seoul"))
lv = s3.list_object_versions(Bucket="it-versions")
assert [(v["VersionId"], v["IsLatest"]) for v in lv["Versions"]] == [(v2, False), (v1, False)], lv
assert [(m["VersionId"], m["IsLatest"]) for m in lv["DeleteMarkers"]] == [(d["VersionId"], True)], lv
page = s3.list_object_versions(Bucket="it-versions", MaxKeys=1)
assert page["IsTruncated"] and page["NextKeyMarker"] == "doc", page
rest = s3.list_object_versions(Bucket="it-versions", KeyMarker=page["NextKeyMarker"], VersionIdMarker=page["NextVersionIdMarker"])
assert len(rest["Versions"]) == 2 and not rest["IsTruncated"], rest
s3.put_bucket_versioning(Bucket="it-versions", VersioningConfiguration={"Status": "Suspended"})
assert "VersionId" not in s3.put_object(Bucket="it-versions", Key="doc", Body=b"v3")
assert s3.get_object(Bucket="it-versions", Key="doc", VersionId="null")["Body"].read() == b"v3"
ok("versioning", "versions %s %s, marker %s" % (v1, v2, d["VersionId"]))

print("ALL OK", flush=True)
