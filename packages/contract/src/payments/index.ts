export * from './provider-configs.schemas';
export * from './payments.contract';
