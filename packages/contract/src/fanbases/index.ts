export * from './fanbases.schemas';
export * from './fanbases.contract';
export * from './public.contract';
export * from './subscriptions.contract';
