import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { boundedCache } from "../../server/storage/cache";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A cache whose downloads write `size` bytes and are counted. */
function cacheOf(limitBytes: number) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "s3-cache-"));
  dirs.push(root);
  const over: number[] = [];
  const cache = boundedCache(root, limitBytes, ({ totalBytes }) => over.push(totalBytes));
  const downloads: string[] = [];
  const get = (key: string, size: number) =>
    cache.get(key, async (target) => {
      downloads.push(key);
      await fs.promises.writeFile(target, Buffer.alloc(size, 1));
    });
  const files = () => fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
  return { cache, get, downloads, files, over, root };
}

describe("the S3 adapter's bounded cache (issue 19)", () => {
  it("downloads a file once per job, however often and however concurrently it is asked for", async () => {
    const { cache, get, downloads, files } = cacheOf(1000);
    await cache.scope(async () => {
      const paths = await Promise.all([get("media/1/2/source.mp4", 100), get("media/1/2/source.mp4", 100)]);
      expect(paths[0]).toBe(paths[1]);
      await get("media/1/2/source.mp4", 100);
      expect(fs.statSync(paths[0]!).size).toBe(100);
    });
    expect(downloads).toEqual(["media/1/2/source.mp4"]);
    // Emptied when the job ended.
    expect(files()).toEqual([]);
    expect(cache.stats()).toMatchObject({ files: 0, totalBytes: 0 });
  });

  it("stays within its limit outside jobs by evicting the least recently used copy", async () => {
    const { cache, get, downloads, files } = cacheOf(250);
    await get("a", 100);
    await get("b", 100);
    await get("a", 100); // a is now more recent than b
    await get("c", 100); // 300 > 250: b goes
    expect(files()).toEqual(["a", "c"]);
    expect(cache.stats().totalBytes).toBe(200);
    await get("b", 100); // fetched again: a (least recent) goes
    expect(files()).toEqual(["b", "c"]);
    expect(downloads).toEqual(["a", "b", "c", "b"]);
  });

  it("never evicts what a running job holds, and lets it go when the job ends", async () => {
    const { cache, get, files, over } = cacheOf(150);
    await get("idle", 100);
    await cache.scope(async () => {
      await get("job-1", 100); // the idle copy goes to make room
      expect(files()).toEqual(["job-1"]);
      await get("job-2", 100); // both pinned: past the limit only while the job runs, and said so
      expect(files()).toEqual(["job-1", "job-2"]);
      expect(over).toEqual([200]);
    });
    expect(files()).toEqual([]);
  });

  it("keeps a file two jobs share until the last of them ends", async () => {
    const { cache, get, files } = cacheOf(1000);
    let releaseFirst!: () => void;
    const first = cache.scope(async () => {
      await get("shared", 10);
      await new Promise<void>((resolve) => (releaseFirst = resolve));
    });
    await new Promise((r) => setTimeout(r, 10));
    await cache.scope(async () => {
      await get("shared", 10);
    });
    expect(files()).toEqual(["shared"]);
    releaseFirst();
    await first;
    expect(files()).toEqual([]);
  });

  it("keeps what a job wrote and stored for that job only", async () => {
    const { cache, files, root } = cacheOf(1000);
    await cache.scope(async () => {
      fs.mkdirSync(path.join(root, "projects/1/2"), { recursive: true });
      fs.writeFileSync(path.join(root, "projects/1/2/preview-1.mp4"), "x");
      await cache.keepWritten("projects/1/2/preview-1.mp4");
      expect(cache.has("projects/1/2/preview-1.mp4")).toBe(true);
    });
    expect(files()).toEqual([]);
    // Outside a job, a stored file is not kept at all.
    fs.writeFileSync(path.join(root, "projects/1/2/preview-2.mp4"), "x");
    await cache.keepWritten("projects/1/2/preview-2.mp4");
    expect(files()).toEqual([]);
  });
});
