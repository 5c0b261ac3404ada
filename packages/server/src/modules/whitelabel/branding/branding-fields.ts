import type { EffectiveBranding, UpdateBranding } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import type { BrandFields } from '../../../db/whitelabel.schema';
import { AA_NORMAL_TEXT, contrastRatio, textOn } from './contrast';

/** Every branding field by its dotted name, as stored and as `param` names it. */
export const BRAND_FIELDS = [
  'display_name',
  'logo_url',
  'icon_url',
  'colors.primary',
  'colors.accent',
  'colors.background',
  'colors.text',
  'support_email',
  'support_phone',
  'support_url',
  'legal.terms_url',
  'legal.privacy_url',
  'legal.refund_policy_url',
  'email_sender_name',
  'footer_text',
] as const;
const URL_FIELDS = new Set(['logo_url', 'icon_url', 'support_url', 'legal.terms_url', 'legal.privacy_url', 'legal.refund_policy_url']);

/** A PATCH body as `{dotted name: value or null}`, only the fields it names. */
export function flattenPatch(body: Partial<UpdateBranding> | Record<string, unknown>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (key === 'colors' || key === 'legal') {
      for (const [sub, v] of Object.entries(value as Record<string, string | null | undefined>)) if (v !== undefined) out[`${key}.${sub}`] = v;
    } else out[key] = value as string | null;
  }
  return out;
}

/** `422 validation_failed` with `param` for a URL that is not https (live mode) or carries credentials. */
export function checkUrls(patch: Record<string, string | null>, livemode: boolean): void {
  for (const [field, value] of Object.entries(patch)) {
    if (!URL_FIELDS.has(field) || value === null) continue;
    const url = new URL(value);
    const refuse = (message: string) => ApiError.of('validation_failed', { param: field, message, details: { [field]: [message] } });
    if (url.username || url.password) throw refuse('A URL carrying credentials is refused.');
    if (url.protocol !== 'https:' && (livemode || url.protocol !== 'http:')) throw refuse(livemode ? 'Live mode takes https:// URLs only.' : 'Use an http(s):// URL.');
  }
}

/** The stored fields after a patch: a `null` removes the field (it inherits, or falls back to the default). */
export function applyPatch(fields: BrandFields, patch: Record<string, string | null>): BrandFields {
  const next: BrandFields = { ...fields };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}

/** Warnings for colours a page would struggle to read on (WCAG AA, normal text). */
export function contrastWarnings(effective: EffectiveBranding) {
  const warnings: { code: 'low_contrast'; param: string; message: string; ratio: number }[] = [];
  const { primary, text, background } = effective.colors;
  const onPrimary = contrastRatio(primary, textOn(primary));
  if (onPrimary < AA_NORMAL_TEXT) {
    warnings.push({ code: 'low_contrast', param: 'colors.primary', ratio: round(onPrimary), message: 'Text on the primary colour reads below WCAG AA (4.5:1) in black or white.' });
  }
  const body = contrastRatio(text, background);
  if (body < AA_NORMAL_TEXT) {
    warnings.push({ code: 'low_contrast', param: 'colors.text', ratio: round(body), message: 'The text colour on the background colour reads below WCAG AA (4.5:1).' });
  }
  return warnings;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The API's nested shape of stored fields (each absent one `null`). */
export function nestFields(fields: BrandFields) {
  const get = (name: string) => fields[name] ?? null;
  return {
    logo_url: get('logo_url'),
    icon_url: get('icon_url'),
    colors: { primary: get('colors.primary'), accent: get('colors.accent'), background: get('colors.background'), text: get('colors.text') },
    support_email: get('support_email'),
    support_phone: get('support_phone'),
    support_url: get('support_url'),
    legal: { terms_url: get('legal.terms_url'), privacy_url: get('legal.privacy_url'), refund_policy_url: get('legal.refund_policy_url') },
    email_sender_name: get('email_sender_name'),
    footer_text: get('footer_text'),
  };
}
