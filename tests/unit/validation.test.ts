import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fieldErrors } from "../../api/errors";
import { LoginBody, RegisterBody, RegisterForm } from "../../api/user";

const validForm = {
  locale: "en",
  first_name: "Ana",
  last_name: "Silva",
  email: "ana@example.com",
  confirm_email: "ana@example.com",
  password: "secret123",
  password_confirmation: "secret123",
  terms: true,
} as const;

const errorsOf = (schema: z.ZodType, value: unknown): Record<string, string> => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error.issues);
};

describe("registration rules (SPEC §5)", () => {
  it("accepts a complete, consistent form", () => {
    expect(RegisterForm.safeParse(validForm).success).toBe(true);
  });

  it.each(["first_name", "last_name"] as const)("requires %s and caps it at 127 characters", (field) => {
    expect(errorsOf(RegisterForm, { ...validForm, [field]: "" })[field]).toBe("required");
    expect(errorsOf(RegisterForm, { ...validForm, [field]: "   " })[field]).toBe("required");
    expect(errorsOf(RegisterForm, { ...validForm, [field]: "a".repeat(127) })[field]).toBeUndefined();
    expect(errorsOf(RegisterForm, { ...validForm, [field]: "a".repeat(128) })[field]).toBe("too_long");
  });

  it("requires a valid email of at most 255 characters", () => {
    expect(errorsOf(RegisterForm, { ...validForm, email: "" }).email).toBe("required");
    expect(errorsOf(RegisterForm, { ...validForm, email: "not-an-email" }).email).toBe("email_invalid");
    const long = `${"a".repeat(250)}@x.com`;
    expect(errorsOf(RegisterForm, { ...validForm, email: long, confirm_email: long }).email).toBe("too_long");
  });

  it("says the emails are different when confirm_email does not match", () => {
    expect(errorsOf(RegisterForm, { ...validForm, confirm_email: "other@example.com" }).confirm_email).toBe("emails_different");
  });

  it("treats the email confirmation case-insensitively", () => {
    expect(errorsOf(RegisterForm, { ...validForm, confirm_email: "ANA@example.com" }).confirm_email).toBeUndefined();
  });

  it("wants a password of at least 8 characters and at most 255", () => {
    expect(errorsOf(RegisterForm, { ...validForm, password: "", password_confirmation: "" }).password).toBe("required");
    expect(errorsOf(RegisterForm, { ...validForm, password: "1234567", password_confirmation: "1234567" }).password).toBe("password_short");
    expect(errorsOf(RegisterForm, { ...validForm, password: "12345678", password_confirmation: "12345678" }).password).toBeUndefined();
    const long = "p".repeat(256);
    expect(errorsOf(RegisterForm, { ...validForm, password: long, password_confirmation: long }).password).toBe("too_long");
  });

  it("says the passwords are different when the confirmation does not match", () => {
    expect(errorsOf(RegisterForm, { ...validForm, password_confirmation: "secret124" }).password_confirmation).toBe("passwords_different");
  });

  it("requires the terms to be accepted", () => {
    expect(errorsOf(RegisterForm, { ...validForm, terms: false }).terms).toBe("terms_required");
  });

  it("reports every failing field at once, mismatches included", () => {
    const errors = errorsOf(RegisterForm, { ...validForm, first_name: "", confirm_email: "x@y.z", password_confirmation: "nope", terms: false });
    expect(errors).toEqual({
      first_name: "required",
      confirm_email: "emails_different",
      password_confirmation: "passwords_different",
      terms: "terms_required",
    });
  });

  it("only offers the six interface languages", () => {
    expect(errorsOf(RegisterForm, { ...validForm, locale: "ru" }).locale).toBe("invalid");
  });

  it("the server payload carries no confirm_email and keeps referral and clickid", () => {
    const { confirm_email: _c, ...payload } = validForm;
    const parsed = RegisterBody.parse({ ...payload, referral: "friend42", clickid: "abc", "g-recaptcha-response": "x" });
    expect(parsed).not.toHaveProperty("confirm_email");
    expect(parsed.referral).toBe("friend42");
    expect(parsed.clickid).toBe("abc");
  });

  it("the server payload checks the password confirmation too", () => {
    const { confirm_email: _c, ...payload } = validForm;
    expect(errorsOf(RegisterBody, { ...payload, password_confirmation: "different" }).password_confirmation).toBe("passwords_different");
  });
});

describe("sign-in rules (SPEC §5)", () => {
  it("requires a valid email and a password, both at most 255 characters", () => {
    expect(errorsOf(LoginBody, { email: "", password: "" })).toEqual({ email: "required", password: "required" });
    expect(errorsOf(LoginBody, { email: "nope", password: "x" }).email).toBe("email_invalid");
    expect(errorsOf(LoginBody, { email: "a@b.co", password: "p".repeat(256) }).password).toBe("too_long");
    expect(LoginBody.safeParse({ email: "a@b.co", password: "x" }).success).toBe(true);
  });
});
