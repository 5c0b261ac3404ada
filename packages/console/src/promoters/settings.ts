import type { PromoterSettings } from '@svc/contract';
import type { Invalid } from '../commerce/merch';

export interface SettingsForm {
  attribution: string;
  refund: string;
  template: string;
  selfReferral: PromoterSettings['self_referral'];
}

export const settingsForm = (s: PromoterSettings): SettingsForm => ({
  attribution: String(s.attribution_window_days),
  refund: String(s.refund_window_days),
  template: s.link_template ?? '',
  selfReferral: s.self_referral,
});

const wholeIn = (text: string, min: number, max: number) => {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** The settings' `PATCH` body as the API's limits allow it; an empty link template clears it. */
export function settingsPatch(form: SettingsForm) {
  const attribution_window_days = wholeIn(form.attribution, 1, 90);
  if (attribution_window_days === null) return { invalid: 'The attribution window is a whole number of days from 1 to 90.' } satisfies Invalid;
  const refund_window_days = wholeIn(form.refund, 0, 90);
  if (refund_window_days === null) return { invalid: 'The refund window is a whole number of days from 0 to 90.' } satisfies Invalid;
  const template = form.template.trim();
  if (template && (!template.startsWith('https://') || !template.includes('{code}'))) {
    return { invalid: 'The link template is an https URL with {code} in it, e.g. https://tickets.example.com/e/{event}?ref={code}.' } satisfies Invalid;
  }
  return { attribution_window_days, refund_window_days, link_template: template || null, self_referral: form.selfReferral };
}
