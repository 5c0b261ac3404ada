import { describe, expect, it } from 'vitest';
import { settingsForm, settingsPatch } from './settings';

const defaults = { object: 'promoter_settings', livemode: false, attribution_window_days: 30, refund_window_days: 7, link_template: null, self_referral: 'ignore', updated_at: null } as const;

describe('the promoter settings form', () => {
  it('sends the windows as whole days and clears an empty link template', () => {
    expect(settingsPatch(settingsForm(defaults))).toEqual({ attribution_window_days: 30, refund_window_days: 7, link_template: null, self_referral: 'ignore' });
    const form = { ...settingsForm(defaults), attribution: ' 14 ', refund: '0', template: ' https://t.example.com/e/{event}?ref={code} ', selfReferral: 'allow' as const };
    expect(settingsPatch(form)).toEqual({ attribution_window_days: 14, refund_window_days: 0, link_template: 'https://t.example.com/e/{event}?ref={code}', self_referral: 'allow' });
  });

  it('refuses windows out of range and a template without https or {code}', () => {
    const form = settingsForm(defaults);
    for (const attribution of ['0', '91', '7.5', '']) expect(settingsPatch({ ...form, attribution })).toHaveProperty('invalid');
    for (const refund of ['-1', '91', 'x']) expect(settingsPatch({ ...form, refund })).toHaveProperty('invalid');
    expect(settingsPatch({ ...form, template: 'http://t.example.com/?ref={code}' })).toHaveProperty('invalid');
    expect(settingsPatch({ ...form, template: 'https://t.example.com/' })).toHaveProperty('invalid');
  });
});
