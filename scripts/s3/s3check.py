"""What the boto3 checks (boto3_check, keys_check, objects_check, lifecycle_check) share: a path-style
SigV4 client, and the ok / expect_error reporting."""
import boto3
import botocore
from botocore.config import Config


def path_client(endpoint, key, secret, region, attempts=2, **extra):
    """A boto3 S3 client with path-style addressing and Signature V4 (boto3 presigns with V2 unless told
    otherwise; the gateway speaks only V4); ``extra`` goes to the client (e.g. verify) or, for
    request_checksum_calculation, to its Config."""
    conf = {"s3": {"addressing_style": "path"}, "signature_version": "s3v4",
            "retries": {"max_attempts": attempts, "mode": "standard"}}
    if "request_checksum_calculation" in extra:
        conf["request_checksum_calculation"] = extra.pop("request_checksum_calculation")
    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=key, aws_secret_access_key=secret,
                        region_name=region, config=Config(**conf), **extra)


def ok(name, detail=""):
    print("ok", name, detail, flush=True)


def expect_error(code, fn):
    try:
        fn()
    except botocore.exceptions.ClientError as e:
        got = e.response["Error"]["Code"]
        if got != code:
            raise AssertionError("expected %s, got %s: %s" % (code, got, e))
        return e
    raise AssertionError("expected %s, the call succeeded" % code)
