import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

const run = promisify(execFile);

/** A real S3-compatible server for the tests (issue 19): Debian's Ceph radosgw, started by scripts/s3-test-server.sh. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  /** STORAGE=s3 settings for a test server. */
  env(extra?: Record<string, string>): Record<string, string>;
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer().once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/** Ten free loopback ports in a row (S3, the monitor, the OSD's), from S3_TEST_PORT when set. */
async function portBlock(): Promise<number> {
  const fixed = Number(process.env.S3_TEST_PORT);
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = fixed || 20_000 + Math.floor(Math.random() * 30_000);
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => free(base + i)));
    if (all.every(Boolean)) return base;
    if (fixed) throw new Error(`ports ${fixed}..${fixed + 9} are not all free`);
  }
  throw new Error("no ten free ports in a row");
}

export async function startTestS3(): Promise<TestS3> {
  const root = path.resolve(__dirname, "../..");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-s3-"));
  const port = await portBlock();
  const accessKeyId = `test${Math.random().toString(36).slice(2, 10)}`;
  const secretAccessKey = `secret-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const stop = async () => {
    const pids = fs.existsSync(path.join(dir, "pids")) ? fs.readFileSync(path.join(dir, "pids"), "utf8").trim().split(/\s+/).map(Number) : [];
    for (const pid of pids) if (pid > 0) try { process.kill(pid, "SIGKILL"); } catch { /* gone */ }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(path.join(root, "scripts/s3-test-server.sh"), [dir, String(port), accessKeyId, secretAccessKey], { timeout: 120_000 });
  } catch (error) {
    await stop();
    throw new Error(`the S3 test server (Debian's ceph-mon, ceph-osd, radosgw) did not start: ${(error as Error).message}`);
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = `cutroom-${Date.now().toString(36)}`;
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    client,
    env: (extra = {}) => ({ STORAGE: "s3", S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: "1", ...extra }),
    async keys(prefix = "") {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await stop();
    },
  };
}
