import type { Locale } from "../../api/locales";

const GB = 1024 ** 3;

/** Bytes as GB (1024³) with one decimal, e.g. "1.5". */
export const formatGB = (bytes: number) => (Math.max(0, bytes) / GB).toFixed(1);

/** The storage badge: "used / max GB". */
export const formatStorage = (used: number, max: number) => `${formatGB(used)} / ${formatGB(max)} GB`;

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
