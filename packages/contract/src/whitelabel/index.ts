export * from './branding.schemas';
export * from './branding.contract';
export * from './domains.schemas';
export * from './domains.contract';
