export * from './promoters.schemas';
export * from './ledger.schemas';
export * from './promoters.contract';
export * from './ledger.contract';
export * from './promoter-view.contract';
