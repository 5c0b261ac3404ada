/** A buyer of a test: a distinct email per index. */
export const buyer = (i: number | string) => ({ name: `Fan ${i}`, email: `fan${i}@example.test` });

export const address = { name: 'Achieng Otieno', phone: '+254711222333', line1: 'Kenyatta Ave 1', city: 'Nairobi', country: 'KE' };

/** The body of `POST /v1/orders` for `quantity` units of one variant, shipped to a Nairobi address. */
export const orderBody = (variant: string, quantity: number, i: number | string, extra: Record<string, unknown> = {}) => ({
  line_items: [{ variant, quantity }],
  buyer: buyer(i),
  shipping_address: address,
  ...extra,
});
