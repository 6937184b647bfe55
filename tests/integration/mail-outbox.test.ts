import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { maskAddress, outboxMailer } from "../../server/notify/mail";
import { loadServerI18n } from "../../server/notify/i18n";
import { verificationMail } from "../../server/notify/templates";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-outbox-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A real pino logger (Fastify's) writing its JSON lines into `lines`. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const app = Fastify({ logger: { level: "info", stream } });
  return { log: app.log, lines };
}

describe("the outbox mailer (no SMTP_URL)", () => {
  it("writes the message with its link to a file and logs only that it did, never the link", async () => {
    const { log, lines } = capturingLogger();
    const mailer = outboxMailer(dir, "Cutroom <no-reply@cutroom.local>", log);
    const link = "http://localhost:8080/api/v1/user/email/verify/7?expires=1999999999&signature=SeCrEtSiGnAtUrE_abc-123";
    await mailer.send(verificationMail(loadServerI18n()("en"), "ana.silva@example.com", "Ana", link));

    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const written = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), "utf8"));
    // The outbox file is the mail itself: the link is there for a developer to open.
    expect(written.links).toEqual([link]);
    expect(written.to).toBe("ana.silva@example.com");

    const line = lines.find((l) => l.includes("mail written to outbox"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ to: "a***@example.com", template: "verification", outbox: files[0] });
    for (const l of lines) {
      expect(l).not.toContain("SeCrEtSiGnAtUrE_abc-123");
      expect(l).not.toContain("signature");
      expect(l).not.toContain("/verify/");
      expect(l).not.toContain("ana.silva@");
    }
  });

  it("masks addresses to their first character and domain", () => {
    expect(maskAddress("ana@example.com")).toBe("a***@example.com");
    expect(maskAddress("x@y.org")).toBe("x***@y.org");
    expect(maskAddress("@odd")).toBe("***@odd");
    expect(maskAddress("no-at-sign")).toBe("***");
  });
});
