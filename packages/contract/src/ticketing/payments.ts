export * from './payments.schemas';
export * from './payments.contract';
