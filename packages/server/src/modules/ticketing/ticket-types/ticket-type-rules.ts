import type { CreateTicketTypeInput } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import { newUuidV7 } from '../../../core/ids';
import type { ExtraField } from '../../../db/ticketing.schema';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

export interface PricingState {
  pricing_mode: 'fixed' | 'name_your_price';
  price: number | null;
  flexipay_min_price: number | null;
  flexipay_max_price: number | null;
  min_per_order: number;
  max_per_order: number;
  sale_starts_at: Date | null;
  sale_ends_at: Date | null;
}

/** The rules across fields, checked on the ticket type as it will be after a create or an update. */
export function checkTicketType(t: PricingState) {
  if (t.pricing_mode === 'fixed' && t.price === null) throw invalid('price', 'A fixed-price ticket type needs a price (0 is free).');
  if (t.pricing_mode === 'name_your_price') {
    if (t.flexipay_min_price === null) throw invalid('flexipay_min_price', 'A name-your-price ticket type needs a minimum (0 allowed).');
    if (t.flexipay_max_price !== null && t.flexipay_max_price < t.flexipay_min_price) {
      throw invalid('flexipay_max_price', 'Must be at least flexipay_min_price.');
    }
  }
  if (t.min_per_order > t.max_per_order) throw invalid('max_per_order', 'Must be at least min_per_order.');
  if (t.sale_starts_at && t.sale_ends_at && t.sale_ends_at.getTime() <= t.sale_starts_at.getTime()) {
    throw invalid('sale_ends_at', 'Must be after sale_starts_at.');
  }
}

/**
 * Extra fields with their uuid ids. A field keeps the id it had under the same name, so answers collected
 * before an edit still match it. `select` needs options; the other types take none.
 */
export function extraFieldsOf(input: NonNullable<CreateTicketTypeInput['extra_fields']>, previous: readonly ExtraField[] = []): ExtraField[] {
  const names = new Set<string>();
  return input.map((f, i) => {
    if (names.has(f.name)) throw invalid(`extra_fields.${i}.name`, 'Field names must differ.');
    names.add(f.name);
    if (f.type === 'select' && !f.options) throw invalid(`extra_fields.${i}.options`, 'A select field needs options.');
    if (f.type !== 'select' && f.options) throw invalid(`extra_fields.${i}.options`, 'Only select fields take options.');
    return {
      id: previous.find((p) => p.name === f.name)?.id ?? newUuidV7(),
      name: f.name,
      type: f.type,
      required: f.required ?? false,
      options: f.options ?? null,
    };
  });
}
