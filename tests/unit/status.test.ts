import { describe, expect, it } from "vitest";
import { classifyFailure, isUserResource } from "../../workers/status";

describe("the client's status mapping (SPEC §8)", () => {
  const body = { message: "Nope", code: "validation_failed", fields: { email: "email_taken" } };

  it("400 is 'Bad request', naming the storyboard rule that refused when the body has one", () => {
    expect(classifyFailure(400, "/projects/1", { message: "x", code: "bad_request" })).toEqual({ kind: "bad_request" });
    expect(classifyFailure(400, "/projects/1", "not json")).toEqual({ kind: "bad_request" });
    expect(classifyFailure(400, "/scenes/1/trim", { message: "x", code: "markers_cross" })).toEqual({ kind: "bad_request", code: "markers_cross" });
  });

  it("401 signs the user out, on any URL", () => {
    expect(classifyFailure(401, "/projects/1", body)).toEqual({ kind: "signed_out" });
    expect(classifyFailure(401, "/user", body)).toEqual({ kind: "signed_out" });
  });

  it("403 on a user resource signs the user out", () => {
    expect(classifyFailure(403, "/user/quotas", body)).toEqual({ kind: "signed_out" });
    expect(classifyFailure(403, "/user", body)).toEqual({ kind: "signed_out" });
  });

  it("403 elsewhere falls through to the body", () => {
    expect(classifyFailure(403, "/projects/3", { message: "No", code: "forbidden" })).toEqual({
      kind: "body",
      status: 403,
      body: { message: "No", code: "forbidden" },
    });
    expect(isUserResource("/username-lookup")).toBe(false);
  });

  it("406 shows the server's body", () => {
    expect(classifyFailure(406, "/projects/1", body)).toEqual({ kind: "body", status: 406, body });
  });

  it("500 is 'Internal server error'", () => {
    expect(classifyFailure(500, "/user", body)).toEqual({ kind: "internal" });
  });

  it("other statuses show the body", () => {
    expect(classifyFailure(422, "/register", body)).toEqual({ kind: "body", status: 422, body });
    expect(classifyFailure(429, "/user/login", { message: "Slow down", code: "rate_limited" }).kind).toBe("body");
  });

  it("a gateway error without our body reads as a server error", () => {
    expect(classifyFailure(502, "/user", "<html>Bad gateway</html>")).toEqual({ kind: "internal", status: 502 });
  });
});
