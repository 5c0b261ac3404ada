import { modulePart } from '../../core/modules/module-definition';
import type { WhitelabelCache } from './whitelabel-cache';

export const whitelabelCachePart = modulePart<WhitelabelCache>('whitelabel.cache');
