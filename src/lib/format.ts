import { i18n } from "@lingui/core";
import type { Locale } from "../../api/language-codes";

const GB = 1024 ** 3;

/**
 * A number with one decimal, written the way the interface language writes it ("1.5" in English, "1,5" in
 * German and Portuguese; issue 18). The active interface language unless one is named.
 */
export const formatDecimal1 = (value: number, locale: string | undefined = i18n.locale || undefined) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: true }).format(value);

/** Bytes as GB (1024³) with one decimal, e.g. "1.5" (or "1,5"). */
export const formatGB = (bytes: number, locale?: string) => formatDecimal1(Math.max(0, bytes) / GB, locale);

/** The storage badge: "used / max GB". */
export const formatStorage = (used: number, max: number, locale?: string) => `${formatGB(used, locale)} / ${formatGB(max, locale)} GB`;

const pad = (n: number) => String(n).padStart(2, "0");

/** MM/DD/YYYY for English, DD/MM/YYYY for every other language (SPEC §9). */
export function formatDate(value: string | Date, locale: Locale): string {
  const d = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return "";
  const [day, month, year] = [pad(d.getDate()), pad(d.getMonth() + 1), d.getFullYear()];
  return locale === "en" ? `${month}/${day}/${year}` : `${day}/${month}/${year}`;
}

/** US$ from cents with two decimals. */
export const formatUsd = (cents: number) => `US$ ${(cents / 100).toFixed(2)}`;

const MB = 1024 ** 2;

const KB = 1024;

/** A file size with one decimal: GB (1024³) from 1 GB, MB (1048576) from 0.1 MB, KB below. */
export function formatSize(bytes: number, locale?: string): string {
  const value = Math.max(0, bytes);
  if (value >= GB) return `${formatGB(value, locale)} GB`;
  if (value >= MB / 10) return `${formatDecimal1(value / MB, locale)} MB`;
  return `${formatDecimal1(value / KB, locale)} KB`;
}

/** A length as mm:ss, or h:mm:ss from one hour up. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** A percentage (0–100) with one decimal, written the way the language writes numbers: "45.3%", "45,3 %". */
export const formatPercent = (value: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    Math.max(0, Math.min(100, value)) / 100,
  );
