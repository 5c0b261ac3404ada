/** Currencies the API counts without a minor unit (ISO 4217 exponent 0). */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'UGX', 'RWF', 'XAF', 'XOF', 'VND', 'CLP', 'ISK']);

/** An amount in the currency's minor unit, as a person reads it: `KES 1,500.00`. */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  const major = ZERO_DECIMAL.has(code) ? minor : minor / 100;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'code' }).format(major);
  } catch {
    return `${code} ${major.toFixed(ZERO_DECIMAL.has(code) ? 0 : 2)}`;
  }
}

/** An amount the analytics answer in major units (`1500.5`), as a person reads it. */
export function formatMajor(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase(), currencyDisplay: 'code' }).format(value);
  } catch {
    return `${currency.toUpperCase()} ${value.toFixed(2)}`;
  }
}

/** An amount in minor units as the text an amount field starts with: `1500.00`, or `1500` without a minor unit. */
export function amountText(minor: number, currency: string): string {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? String(minor) : (minor / 100).toFixed(2);
}

/** What a person types (`1500`, `1,500.50`) in the currency's minor unit; `null` when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const clean = text.replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const value = Number(clean);
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? (Number.isInteger(value) ? value : null) : Math.round(value * 100);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A `datetime-local` input's value as an ISO instant (the browser's time zone). */
export function localToIso(local: string): string {
  return new Date(local).toISOString();
}
