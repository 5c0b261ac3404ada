import { initContract } from '@ts-rest/core';
import { commerceProductsContract, commerceSettingsContract, publicProductsContract } from './products.contract';
import { productOrdersContract } from './orders.contract';

export * from './products.schemas';
export * from './products.contract';
export * from './orders.schemas';
export * from './orders.contract';

const c = initContract();

/** Commerce: products and variants, organizations' commerce settings, public product reads. */
export const commerceContract = c.router({
  products: commerceProductsContract,
  settings: commerceSettingsContract,
  public: publicProductsContract,
  orders: productOrdersContract,
});
