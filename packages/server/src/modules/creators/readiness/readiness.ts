import { READINESS_ITEMS, READINESS_WEIGHTS, type Readiness, type ReadinessItem } from '@svc/contract';

/** What readiness is computed from: the organization, its profile, and whether a member has a verified contact. */
export interface ReadinessInput {
  name: string;
  handle: string;
  /** No other organization of the environment uses the handle. */
  handleUnique: boolean;
  hasAvatar: boolean;
  hasCover: boolean;
  bio: string | null;
  hasVerifiedContact: boolean;
  links: readonly string[];
  joinEnabled: boolean;
  subscriptionEnabled: boolean;
  isPublic: boolean;
  externalStorefrontUrl: string | null;
  publicCapsuleUrl: string;
}

const HANDLE = /^[a-z0-9_.]{3,30}$/;
const BIO_MIN = 20;
const BIO_GOOD = 60;

/** Length in characters as a reader counts them (code points, not UTF-16 units), ignoring outer spaces. */
const lengthOf = (text: string | null) => [...(text ?? '').trim()].length;

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The readiness rules, in one place: each item's test, the score, the status, warnings and share blockers. */
export function computeReadiness(input: ReadinessInput): Readiness {
  const done: Record<ReadinessItem, boolean> = {
    name: input.name.trim().length > 0,
    handle: HANDLE.test(input.handle) && input.handleUnique,
    avatar: input.hasAvatar,
    bio: lengthOf(input.bio) >= BIO_MIN,
    cover: input.hasCover,
    contact: input.hasVerifiedContact,
    links: input.links.some(isWebUrl),
    audience_enabled: input.joinEnabled || input.subscriptionEnabled,
  };
  const completed = READINESS_ITEMS.filter((item) => done[item]);
  const score = completed.reduce((sum, item) => sum + READINESS_WEIGHTS[item], 0);
  const blockers: Readiness['share_blockers'] = [];
  if (!done.name) blockers.push('name_missing');
  if (!done.handle) blockers.push('handle_missing');
  if (!input.isPublic) blockers.push('not_public');
  const warnings: Readiness['warnings'] = [];
  if (lengthOf(input.bio) < BIO_GOOD) warnings.push('bio_short');
  if (!input.hasCover) warnings.push('cover_missing');
  if (input.externalStorefrontUrl !== null && !input.externalStorefrontUrl.toLowerCase().startsWith('https://')) warnings.push('storefront_not_https');
  const status = blockers.length > 0 ? 'draft' : score >= 80 ? 'strong' : score >= 50 ? 'shareable' : 'draft';
  return {
    score,
    status,
    public_capsule_url: input.publicCapsuleUrl,
    completed_items: completed,
    missing_items: READINESS_ITEMS.filter((item) => !done[item]),
    warnings,
    share_blockers: blockers,
  };
}
