import { describe, expect, it } from "vitest";
import { formatDate, formatGB, formatSize, formatStorage, formatUsd } from "../../src/lib/format";
import { defaultLocale } from "../../src/i18n/locale";
import { remainingQuotas } from "../../server/domain/quotas";

describe("storage in GB (SPEC §9)", () => {
  it("divides by 1024³ and keeps one decimal", () => {
    expect(formatGB(0)).toBe("0.0");
    expect(formatGB(1024 ** 3)).toBe("1.0");
    expect(formatGB(1.25 * 1024 ** 3)).toBe("1.3");
    expect(formatGB(5 * 1024 ** 3 - 1)).toBe("5.0");
    expect(formatGB(-10)).toBe("0.0");
  });

  it("shows used / max GB on the badge", () => {
    expect(formatStorage(512 * 1024 ** 2, 5 * 1024 ** 3)).toBe("0.5 / 5.0 GB");
  });

  it("writes the decimal the way each interface language does (issue 18)", () => {
    const size = 1.25 * 1024 ** 3;
    expect(formatSize(size, "en")).toBe("1.3 GB");
    for (const locale of ["de", "pt-BR", "es", "it", "fr"]) expect(formatSize(size, locale)).toBe("1,3 GB");
    expect(formatStorage(1024 ** 3, 150 * 1024 ** 3, "de")).toBe("1,0 / 150,0 GB");
    expect(formatSize(300 * 1024 ** 2, "pt-BR")).toBe("300,0 MB");
    expect(formatGB(1500 * 1024 ** 3, "en")).toBe("1,500.0");
  });
});

describe("dates (SPEC §9)", () => {
  const date = new Date(2026, 2, 7, 15, 30);
  it("are MM/DD/YYYY for English", () => {
    expect(formatDate(date, "en")).toBe("03/07/2026");
  });
  it.each(["pt-BR", "es", "it", "fr", "de"] as const)("are DD/MM/YYYY for %s", (locale) => {
    expect(formatDate(date, locale)).toBe("07/03/2026");
  });
  it("are empty for a value that is not a date", () => {
    expect(formatDate("not a date", "en")).toBe("");
  });
});

describe("prices", () => {
  it("are US$ with two decimals from cents", () => {
    expect(formatUsd(1900)).toBe("US$ 19.00");
    expect(formatUsd(0)).toBe("US$ 0.00");
  });
});

describe("default language (SPEC §1)", () => {
  it("is pt-BR when the browser speaks pt-BR", () => {
    expect(defaultLocale(["pt-BR", "en"])).toBe("pt-BR");
    expect(defaultLocale(["pt-br"])).toBe("pt-BR");
  });
  it("is English for every other browser language", () => {
    expect(defaultLocale(["pt-PT"])).toBe("en");
    expect(defaultLocale(["de-DE", "pt-BR"])).toBe("en");
    expect(defaultLocale(["fr"])).toBe("en");
    expect(defaultLocale([])).toBe("en");
  });
});

describe("quotas", () => {
  const limits = { monthly_minutes: 30, storage_gb: 5, upload_max_length_minutes: 10, upload_max_size_mb: 1024 };
  it("are what the plan allows minus what is used", () => {
    expect(remainingQuotas(limits, { usedStorageBytes: 1024 ** 3, usedMinutesThisPeriod: 12 })).toEqual({
      uploadMaxSizeBytes: 1024 ** 3,
      uploadMaxLengthMinutes: 10,
      processingMinutes: 18,
      storageBytes: 4 * 1024 ** 3,
    });
  });
  it("never go below zero", () => {
    const q = remainingQuotas(limits, { usedStorageBytes: 10 * 1024 ** 3, usedMinutesThisPeriod: 99 });
    expect(q.processingMinutes).toBe(0);
    expect(q.storageBytes).toBe(0);
  });
});
