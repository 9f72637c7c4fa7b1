#!/usr/bin/env python3
"""Checks version deletes, object lock, object metadata and bucket lifecycle of a geoblocks gateway with boto3 (used by
S3GatewayIT, whose cluster runs with a short lifecycle day: geoblocks.s3.lifecycle.day = DAY_S seconds).

Usage: lifecycle_check.py ENDPOINT OTHER_ENDPOINT DAY_S
Prints one line per check ("ok NAME ..."); exits non-zero on the first failure with its reason.
"""
import datetime
import sys
import time
import uuid

import boto3
import botocore
from botocore.config import Config

from s3check import expect_error, ok, path_client

ENDPOINT, OTHER, DAY = sys.argv[1], sys.argv[2], float(sys.argv[3])
KEY, SECRET, REGION = "geoblocks-demo", "geoblocks-local-demo-secret", "us-east-1"
MIB = 1024 * 1024


def client(endpoint=ENDPOINT):
    return path_client(endpoint, KEY, SECRET, REGION)




def versions(s3, bucket, key=None):
    r = s3.list_object_versions(Bucket=bucket, **({"Prefix": key} if key else {}))
    return ([(v["Key"], v["VersionId"], v["IsLatest"]) for v in r.get("Versions", [])],
            [(m["Key"], m["VersionId"], m["IsLatest"]) for m in r.get("DeleteMarkers", [])])


def wait_until(what, cond, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.5)
    raise AssertionError("timed out waiting until " + what)


s3, far = client(), client(OTHER)
run = uuid.uuid4().hex[:8]

# --- DeleteObject with versionId: any version, a delete marker too; the version below becomes current
b = "lc-ver-" + run
s3.create_bucket(Bucket=b)
s3.put_bucket_versioning(Bucket=b, VersioningConfiguration={"Status": "Enabled"})
big = bytes(range(256)) * (3 * MIB // 256)  # several blocks, so the purge leaves blocks of other versions in place
v1 = s3.put_object(Bucket=b, Key="k", Body=big)["VersionId"]
v2 = s3.put_object(Bucket=b, Key="k", Body=b"two")["VersionId"]
v3 = s3.put_object(Bucket=b, Key="k", Body=b"three")["VersionId"]
r = s3.delete_object(Bucket=b, Key="k", VersionId=v2)  # a noncurrent version
assert r["VersionId"] == v2 and not r.get("DeleteMarker"), r
assert [v[1] for v in versions(s3, b)[0]] == [v3, v1], versions(s3, b)
r = s3.delete_object(Bucket=b, Key="k", VersionId=v3)  # the current one: v1 becomes current
assert s3.get_object(Bucket=b, Key="k")["Body"].read() == big
assert versions(s3, b)[0] == [("k", v1, True)], versions(s3, b)
wait_until("the other node serves v1", lambda: far.get_object(Bucket=b, Key="k").get("VersionId") == v1, 30)
m = s3.delete_object(Bucket=b, Key="k")  # a delete marker
assert m["DeleteMarker"] and m["VersionId"] != v1, m
e = expect_error("404", lambda: s3.head_object(Bucket=b, Key="k"))
assert e.response["ResponseMetadata"]["HTTPHeaders"].get("x-amz-delete-marker") == "true", e.response
r = s3.delete_object(Bucket=b, Key="k", VersionId=m["VersionId"])  # deleting the marker brings v1 back
assert r["DeleteMarker"] and r["VersionId"] == m["VersionId"], r
assert s3.get_object(Bucket=b, Key="k")["Body"].read() == big
# stacked markers on a key without a live version, and DeleteObjects by version
m1 = s3.delete_object(Bucket=b, Key="gone")["VersionId"]
m2 = s3.delete_object(Bucket=b, Key="gone")["VersionId"]
assert m1 != m2 and len(versions(s3, b, "gone")[1]) == 2, versions(s3, b, "gone")
d = s3.delete_objects(Bucket=b, Delete={"Objects": [{"Key": "gone", "VersionId": m1}, {"Key": "gone", "VersionId": m2},
                                                    {"Key": "k", "VersionId": v1}]})
assert sorted((x["Key"], x["VersionId"], x.get("DeleteMarker", False)) for x in d["Deleted"]) == \
    sorted([("gone", m1, True), ("gone", m2, True), ("k", v1, False)]), d
assert versions(s3, b) == ([], []), versions(s3, b)
ok("delete-versions", "noncurrent, current, delete markers, DeleteObjects")

# --- object lock: a retained or held version is refused to DeleteObject(s) with its versionId, at either node
b4 = "lc-lock-" + run
s3.create_bucket(Bucket=b4, ObjectLockEnabledForBucket=True)
assert s3.get_bucket_versioning(Bucket=b4)["Status"] == "Enabled"
expect_error("InvalidBucketState", lambda: s3.put_bucket_versioning(Bucket=b4, VersioningConfiguration={"Status": "Suspended"}))
until = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).replace(microsecond=0)
kept = s3.put_object(Bucket=b4, Key="r", Body=b"retained", ObjectLockMode="GOVERNANCE", ObjectLockRetainUntilDate=until)["VersionId"]
h = s3.head_object(Bucket=b4, Key="r")
assert h["ObjectLockMode"] == "GOVERNANCE" and h["ObjectLockRetainUntilDate"] == until, h
wait_until("the other node lists the version",
           lambda: kept in [v["VersionId"] for v in far.list_object_versions(Bucket=b4).get("Versions", [])], 30)
for c in (s3, far):  # the retention travels in the version's metadata
    expect_error("AccessDenied", lambda: c.delete_object(Bucket=b4, Key="r", VersionId=kept))
d = s3.delete_objects(Bucket=b4, Delete={"Objects": [{"Key": "r", "VersionId": kept}]})
assert [(e["Key"], e["VersionId"], e["Code"]) for e in d["Errors"]] == [("r", kept, "AccessDenied")], d
expect_error("AccessDenied", lambda: s3.put_object_retention(Bucket=b4, Key="r", Retention={
    "Mode": "GOVERNANCE", "RetainUntilDate": until - datetime.timedelta(minutes=5)}))  # shortened without the bypass
s3.put_object_legal_hold(Bucket=b4, Key="r", LegalHold={"Status": "ON"})
wait_until("the other node sees the legal hold",
           lambda: far.get_object_legal_hold(Bucket=b4, Key="r")["LegalHold"]["Status"] == "ON", 30)
expect_error("AccessDenied", lambda: far.delete_object(Bucket=b4, Key="r", VersionId=kept, BypassGovernanceRetention=True))
s3.put_object_legal_hold(Bucket=b4, Key="r", LegalHold={"Status": "OFF"})
m = s3.delete_object(Bucket=b4, Key="r")  # without a versionId: a delete marker, allowed
assert m["DeleteMarker"], m
assert s3.get_object(Bucket=b4, Key="r", VersionId=kept)["Body"].read() == b"retained"
r = s3.delete_object(Bucket=b4, Key="r", VersionId=kept, BypassGovernanceRetention=True)  # the owner bypasses governance
assert r["VersionId"] == kept, r
expect_error("NoSuchVersion", lambda: s3.get_object(Bucket=b4, Key="r", VersionId=kept))
ok("object-lock", "retention and legal hold refuse version deletes at both nodes, governance bypass, delete markers allowed")

# --- user metadata and standard headers
b2 = "lc-meta-" + run
s3.create_bucket(Bucket=b2)
s3.put_object(Bucket=b2, Key="m", Body=b"x", Metadata={"color": "blue", "Shape": "round"}, CacheControl="max-age=60",
              ContentDisposition='attachment; filename="m.txt"', ContentLanguage="fr", ContentType="text/plain")
h = s3.head_object(Bucket=b2, Key="m")
assert h["Metadata"] == {"color": "blue", "shape": "round"}, h["Metadata"]
assert h["CacheControl"] == "max-age=60" and h["ContentLanguage"] == "fr" and h["ContentType"] == "text/plain", h
assert far.get_object(Bucket=b2, Key="m")["ContentDisposition"] == 'attachment; filename="m.txt"'
s3.copy_object(Bucket=b2, Key="copy", CopySource={"Bucket": b2, "Key": "m"})
assert s3.head_object(Bucket=b2, Key="copy")["Metadata"] == {"color": "blue", "shape": "round"}
s3.copy_object(Bucket=b2, Key="copy", CopySource={"Bucket": b2, "Key": "m"}, MetadataDirective="REPLACE",
               Metadata={"new": "1"}, ContentType="image/png")
h = s3.head_object(Bucket=b2, Key="copy")
assert h["Metadata"] == {"new": "1"} and h["ContentType"] == "image/png" and "CacheControl" not in h, h
expect_error("InvalidRequest", lambda: s3.copy_object(Bucket=b2, Key="m", CopySource={"Bucket": b2, "Key": "m"}))
s3.copy_object(Bucket=b2, Key="m", CopySource={"Bucket": b2, "Key": "m"}, MetadataDirective="REPLACE", Metadata={"a": "b"})
assert s3.head_object(Bucket=b2, Key="m")["Metadata"] == {"a": "b"}
s3.put_object(Bucket=b2, Key="m", Body=b"y")
assert s3.head_object(Bucket=b2, Key="m")["Metadata"] == {}, "a new PUT replaces the metadata"
expect_error("MetadataTooLarge", lambda: s3.put_object(Bucket=b2, Key="huge", Body=b"x", Metadata={"a": "v" * 2100}))
u = s3.create_multipart_upload(Bucket=b2, Key="mp", Metadata={"from": "multipart"})["UploadId"]
p = s3.upload_part(Bucket=b2, Key="mp", UploadId=u, PartNumber=1, Body=b"part")
s3.complete_multipart_upload(Bucket=b2, Key="mp", UploadId=u, MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": p["ETag"]}]})
assert s3.head_object(Bucket=b2, Key="mp")["Metadata"] == {"from": "multipart"}
ok("metadata", "x-amz-meta-*, standard headers, copy, REPLACE, 2 KB limit, multipart")

# --- lifecycle configuration calls
b3 = "lc-rules-" + run
s3.create_bucket(Bucket=b3)
expect_error("NoSuchLifecycleConfiguration", lambda: s3.get_bucket_lifecycle_configuration(Bucket=b3))
rules = [{"ID": "exp", "Filter": {"Prefix": "tmp/"}, "Status": "Enabled", "Expiration": {"Days": 1}},
         {"ID": "nc", "Filter": {"Prefix": "v/"}, "Status": "Enabled", "NoncurrentVersionExpiration": {"NoncurrentDays": 1},
          "Expiration": {"ExpiredObjectDeleteMarker": True}},
         {"ID": "mp", "Filter": {"Prefix": "up/"}, "Status": "Enabled", "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1}}]
expect_error("InvalidArgument", lambda: s3.put_bucket_lifecycle_configuration(Bucket=b3, LifecycleConfiguration={"Rules": [
    {"ID": "x", "Filter": {"Prefix": ""}, "Status": "Enabled", "Expiration": {"Days": 0}}]}))
expect_error("MalformedXML", lambda: s3.put_bucket_lifecycle_configuration(Bucket=b3, LifecycleConfiguration={"Rules": [
    {"ID": "x", "Filter": {"Prefix": ""}, "Status": "enabled", "Expiration": {"Days": 1}}]}))
s3.put_bucket_versioning(Bucket=b3, VersioningConfiguration={"Status": "Enabled"})
s3.put_object(Bucket=b3, Key="tmp/a", Body=b"a")
s3.put_object(Bucket=b3, Key="keep/a", Body=b"a")
old = s3.put_object(Bucket=b3, Key="v/a", Body=b"1")["VersionId"]
cur = s3.put_object(Bucket=b3, Key="v/a", Body=b"2")["VersionId"]
s3.put_object(Bucket=b3, Key="v/b", Body=b"1")
s3.delete_object(Bucket=b3, Key="v/b")  # a marker over one version: both go (noncurrent, then the marker alone)
# in an object lock bucket, a noncurrent version under a legal hold outlives its NoncurrentVersionExpiration
s3.put_bucket_lifecycle_configuration(Bucket=b4, LifecycleConfiguration={"Rules": [
    {"ID": "nc", "Filter": {"Prefix": ""}, "Status": "Enabled", "NoncurrentVersionExpiration": {"NoncurrentDays": 1}}]})
held = s3.put_object(Bucket=b4, Key="a-held", Body=b"1", ObjectLockLegalHoldStatus="ON")["VersionId"]
s3.put_object(Bucket=b4, Key="a-held", Body=b"2")
s3.put_object(Bucket=b4, Key="z-free", Body=b"1")
free_cur = s3.put_object(Bucket=b4, Key="z-free", Body=b"2")["VersionId"]
upload = s3.create_multipart_upload(Bucket=b3, Key="up/x")["UploadId"]
s3.put_bucket_lifecycle_configuration(Bucket=b3, LifecycleConfiguration={"Rules": rules})
got = s3.get_bucket_lifecycle_configuration(Bucket=b3)["Rules"]
assert [r["ID"] for r in got] == ["exp", "nc", "mp"] and got[0]["Expiration"] == {"Days": 1}, got
ok("lifecycle-config", "put, get, errors")

# --- the runner applies it once the (shortened) days have passed
wait_until("tmp/a expires", lambda: "tmp/a" not in [c["Key"] for c in s3.list_objects_v2(Bucket=b3).get("Contents", [])],
           10 * DAY + 30)
assert [v for v in versions(s3, b3, "tmp/a")[1] if v[2]], "an expired current version leaves a delete marker (versioned bucket)"
wait_until("the noncurrent version of v/a is purged", lambda: versions(s3, b3, "v/a")[0] == [("v/a", cur, True)], 10 * DAY + 30)
wait_until("v/b's version and marker are purged", lambda: versions(s3, b3, "v/b") == ([], []), 10 * DAY + 30)
wait_until("the upload is aborted",
           lambda: [x["UploadId"] for x in s3.list_multipart_uploads(Bucket=b3).get("Uploads", [])] == [], 10 * DAY + 30)
assert s3.get_object(Bucket=b3, Key="keep/a")["Body"].read() == b"a", "outside every rule: kept"
expect_error("NoSuchVersion", lambda: s3.get_object(Bucket=b3, Key="v/a", VersionId=old))
s3.delete_bucket_lifecycle(Bucket=b3)
expect_error("NoSuchLifecycleConfiguration", lambda: s3.get_bucket_lifecycle_configuration(Bucket=b3))
ok("lifecycle-runner", "expiration, noncurrent, expired marker, multipart abort")
# the runner visits a bucket's keys in order: once z-free's noncurrent version is gone, a-held's was decided on
wait_until("z-free's noncurrent version is purged", lambda: versions(s3, b4, "z-free")[0] == [("z-free", free_cur, True)],
           10 * DAY + 30)
assert held in [v[1] for v in versions(s3, b4, "a-held")[0]], "a held version is not expired: " + str(versions(s3, b4))
s3.put_object_legal_hold(Bucket=b4, Key="a-held", VersionId=held, LegalHold={"Status": "OFF"})
ok("object-lock-lifecycle", "a held noncurrent version is kept past its NoncurrentVersionExpiration")
# --- encryption the gateway cannot give is refused, never silently ignored (sse_check.py checks what it gives)
expect_error("NotImplemented", lambda: s3.put_object(Bucket=b2, Key="sse", Body=b"x", ServerSideEncryption="aws:kms"))
expect_error("InvalidRequest", lambda: s3.put_object(Bucket=b2, Key="sse", Body=b"x", SSECustomerAlgorithm="AES256",
                                                     SSECustomerKey="k" * 32))  # an SSE-C key over plain HTTP
expect_error("NoSuchKey", lambda: s3.get_object(Bucket=b2, Key="sse"))
ok("encryption-refused", "SSE-KMS answered NotImplemented, an SSE-C key over plain HTTP InvalidRequest, nothing stored")
print("ALL OK")
