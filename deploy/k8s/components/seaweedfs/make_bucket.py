"""Makes the archive's bucket once, then exits: compose's `archive-init` and the Kubernetes kit's Job
`seaweedfs-make-bucket` both run this file (the tavern image: boto3). The endpoint and bucket are
the processes' own settings, the credentials boto3's AWS_* variables. Waits up to a minute for the
store to answer; a bucket already there is left as it is, so it may run again."""

import os
import time

import boto3

endpoint, bucket = os.environ["TAVERN_ARCHIVE_S3_ENDPOINT"], os.environ["TAVERN_ARCHIVE_S3_BUCKET"]
s3 = boto3.client("s3", endpoint_url=endpoint)
for _ in range(60):
    try:
        if bucket not in [found["Name"] for found in s3.list_buckets()["Buckets"]]:
            s3.create_bucket(Bucket=bucket)
        break
    except Exception as problem:  # not up yet: its connection refused, or 503 while it starts
        print("make_bucket: waiting for the archive:", problem, flush=True)
        time.sleep(1)
else:
    raise SystemExit("make_bucket: the archive never answered")
